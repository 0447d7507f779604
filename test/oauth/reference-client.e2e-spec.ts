import { ClientsService } from '../../src/clients/clients.service';
import { DemoClientsService } from '../../src/clients/demo-clients.service';
import { REFERENCE_CLIENT_ID } from '../../src/common/openapi/swagger';
import { s256Challenge } from '../../src/oauth/pkce';
import { http } from '../helpers/http';
import { authorizePath, BrowserSession, createSignInUser, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/** The API reference's "Authorize" button: a public client using Swagger UI's redirect page, code flow with PKCE. */
describe('the demo reference client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is created once, public, with the reference\'s redirect page and both scopes', async () => {
    const demo = t.app.get(DemoClientsService);
    expect(await demo.ensureReferenceClient()).toEqual({ clientId: REFERENCE_CLIENT_ID, created: true });
    expect(await demo.ensureReferenceClient()).toEqual({ clientId: REFERENCE_CLIENT_ID, created: false });
    const client = await t.app.get(ClientsService).findByClientId(REFERENCE_CLIENT_ID);
    expect(client).toMatchObject({ type: 'public', secretHash: null, redirectUris: [`${t.url}/docs/oauth2-redirect.html`], scopes: ['email', 'openid', 'profile', 'read:startups'] });
  });

  it('runs the code flow the way Swagger UI does, with the token request from the browser\'s origin', async () => {
    await t.app.get(DemoClientsService).ensureReferenceClient();
    const user = await createSignInUser(t.app);
    const verifier = 'r'.repeat(43);
    const redirectUri = `${t.url}/docs/oauth2-redirect.html`;
    const callback = await runAuthorization(
      new BrowserSession(t.url),
      authorizePath({
        response_type: 'code',
        client_id: REFERENCE_CLIENT_ID,
        redirect_uri: redirectUri,
        scope: 'profile read:startups',
        state: 'U3dhZ2dlcg',
        code_challenge: s256Challenge(verifier),
        code_challenge_method: 'S256',
      }),
      user,
    );
    expect(callback.origin + callback.pathname).toBe(redirectUri);
    // Swagger UI leaves out empty fields (no client_secret) and sends client_id in the form.
    const res = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url, accept: 'application/json, text/plain, */*' },
      body: `grant_type=authorization_code&code=${callback.searchParams.get('code')}&client_id=${REFERENCE_CLIENT_ID}&redirect_uri=${encodeURIComponent(redirectUri)}&code_verifier=${verifier}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('profile read:startups');
  });

  it('documents the OAuth endpoints in the reference, forms and RFC bodies included, without any secret', async () => {
    const doc = (await http(t.url, '/docs-json')).body;
    for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/introspect']) {
      const operation = doc.paths[path].post;
      expect(operation.tags).toEqual(['oauth']);
      expect(Object.keys(operation.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
      expect(operation.responses['401'].content['application/json'].examples.invalid_client.value.error).toBe('invalid_client');
    }
    expect(doc.paths['/oauth/authorize'].get.tags).toEqual(['oauth']);
    expect(doc.paths['/.well-known/oauth-authorization-server'].get.tags).toEqual(['oauth']);
    // The browser forms of the flow are not an API.
    expect(doc.paths['/oauth/sign-in']).toBeUndefined();
    expect(doc.paths['/oauth/consent']).toBeUndefined();
    expect(JSON.stringify(doc)).not.toMatch(/sp_(at|rt|cs|ac)_[A-Za-z0-9_-]{20,}/);
  });
});

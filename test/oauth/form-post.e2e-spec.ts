import { createHash } from 'node:crypto';
import * as fc from 'fast-check';
import * as oauth from 'oauth4webapi';
import { DeveloperService } from '../../src/developer/developer.service';
import { s256Challenge } from '../../src/oauth/pkce';
import { BrowserResponse, BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, OAuthTestUser, registerClient } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/** The form a form_post page posts: its action and its fields, as the browser would send them. */
function postedForm(page: BrowserResponse): { action: string; fields: Record<string, string> } {
  const action = /<form method="post" action="([^"]*)">/.exec(page.text)?.[1];
  if (action === undefined) throw new Error(`no form in ${page.text.slice(0, 300)}`);
  return { action: action.replace(/&amp;/g, '&'), fields: hiddenInputs(page.text) };
}

/** The inline scripts of a page, exactly as written. */
const scriptsOf = (html: string) => [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The form post response mode (docs/integrate-with-oauth.md, "Form post response mode"): the code or
 * the error is posted to the redirect URI by a page instead of travelling in a URL. The client side is
 * oauth4webapi unchanged, given the posted body. The page runs one script, pinned by its hash in the
 * CSP; errors of an unverified application the user did not act for are still held on a page.
 */
describe('response_mode=form_post', () => {
  let t: TestApp;
  let as: oauth.AuthorizationServer;
  let user: OAuthTestUser;
  let verified: OAuthTestClient;
  const insecure = { [oauth.allowInsecureRequests]: true } as const;
  const verifier = 'v'.repeat(43);

  beforeAll(async () => {
    t = await startTestApp();
    user = await createSignInUser(t.app);
    verified = await registerClient(t.app, { redirectUris: ['http://127.0.0.1:9/callback?from=test'] });
    const issuer = new URL(t.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  });
  afterAll(() => t.close());

  const authorizePath = (clientId: string, redirectUri: string, extra: Record<string, string> = {}) =>
    `/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'profile read:startups',
      state: 'st-1',
      code_challenge: s256Challenge(verifier),
      code_challenge_method: 'S256',
      response_mode: 'form_post',
      ...extra,
    })}`;

  /** Authorize, sign in, then approve or deny: the last answer of the server. */
  async function throughPages(browser: BrowserSession, path: string, decision: 'approve' | 'deny' = 'approve'): Promise<BrowserResponse> {
    let response = await browser.get(path);
    if (response.status === 200 && response.text.includes('name="password"')) {
      response = await browser.post('/oauth/sign-in', { ...hiddenInputs(response.text), email: user.email, password: user.password });
    }
    if (response.status === 200 && response.text.includes('name="decision"')) {
      response = await browser.post('/oauth/consent', { ...hiddenInputs(response.text), decision });
    }
    return response;
  }

  function expectFormPostPage(page: BrowserResponse, redirectUri: string) {
    expect(page.status).toBe(200);
    expect(page.location).toBeUndefined();
    expect(page.headers.get('cache-control')).toBe('no-store');
    const policy = page.headers.get('content-security-policy')!;
    const scripts = scriptsOf(page.text);
    // Exactly one script, and the policy allows exactly it: nothing else can run on the page.
    expect(scripts).toEqual(['document.forms[0].submit();']);
    expect(policy).toContain(`script-src ${sha256(scripts[0])};`);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain(`form-action 'self' ${new URL(redirectUri).origin};`);
    expect(page.text).toMatch(/<button type="submit">Continue<\/button>/);
    expect(postedForm(page).action).toBe(redirectUri);
  }

  it('posts the code, state and iss to the redirect URI, and oauth4webapi redeems it from the posted body', async () => {
    const page = await throughPages(new BrowserSession(t.url), authorizePath(verified.clientId, verified.redirectUri));
    expectFormPostPage(page, verified.redirectUri);
    const { fields } = postedForm(page);
    expect(Object.keys(fields)).toEqual(['code', 'state', 'iss']);

    const client = { client_id: verified.clientId };
    const params = oauth.validateAuthResponse(as, client, new URLSearchParams(fields), 'st-1');
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic(verified.clientSecret!), params, verified.redirectUri, verifier, insecure),
    );
    expect(tokens.scope).toBe('profile read:startups');
  });

  it('posts errors too: a bad scope, a denial, and prompt=none without a session', async () => {
    const badScope = await new BrowserSession(t.url).get(authorizePath(verified.clientId, verified.redirectUri, { scope: 'admin' }));
    expectFormPostPage(badScope, verified.redirectUri);
    expect(postedForm(badScope).fields).toEqual({ error: 'invalid_scope', error_description: expect.any(String), state: 'st-1', iss: t.url });

    const denied = await throughPages(new BrowserSession(t.url), authorizePath(verified.clientId, verified.redirectUri, { prompt: 'consent' }), 'deny');
    expectFormPostPage(denied, verified.redirectUri);
    expect(postedForm(denied).fields).toMatchObject({ error: 'access_denied', state: 'st-1', iss: t.url });
    expect(() => oauth.validateAuthResponse(as, { client_id: verified.clientId }, new URLSearchParams(postedForm(denied).fields), 'st-1')).toThrow(oauth.AuthorizationResponseError);

    const none = await new BrowserSession(t.url).get(authorizePath(verified.clientId, verified.redirectUri, { prompt: 'none' }));
    expectFormPostPage(none, verified.redirectUri);
    expect(postedForm(none).fields).toMatchObject({ error: 'login_required', state: 'st-1' });
  });

  it('escapes every value it writes into the page', async () => {
    const state = '"><script>alert(1)</script>&\'<img src=x onerror=alert(2)>';
    const page = await new BrowserSession(t.url).get(authorizePath(verified.clientId, verified.redirectUri, { state, scope: 'admin' }));
    expectFormPostPage(page, verified.redirectUri);
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).not.toContain('<img');
    expect(postedForm(page).fields.state).toBe(state);
  });

  it('refuses a response_mode other than query or form_post with invalid_request, redirected in the query', async () => {
    for (const mode of ['fragment', 'web_message', 'FORM_POST', 'form_post ']) {
      const res = await new BrowserSession(t.url).get(authorizePath(verified.clientId, verified.redirectUri, { response_mode: mode }));
      expect(res.status).toBe(302);
      const back = new URL(res.location!);
      expect([back.searchParams.get('error'), back.searchParams.get('error_description')]).toEqual(['invalid_request', 'response_mode must be query or form_post.']);
    }
    const query = await new BrowserSession(t.url).get(authorizePath(verified.clientId, verified.redirectUri, { response_mode: 'query', prompt: 'none' }));
    expect(new URL(query.location!).searchParams.get('error')).toBe('login_required');
  });

  it('carries response_mode in a pushed request', async () => {
    const client = { client_id: verified.clientId };
    const pushed = await oauth.processPushedAuthorizationResponse(
      as,
      client,
      await oauth.pushedAuthorizationRequest(
        as,
        client,
        oauth.ClientSecretBasic(verified.clientSecret!),
        { response_type: 'code', redirect_uri: verified.redirectUri, scope: 'profile', state: 'pushed', response_mode: 'form_post' },
        insecure,
      ),
    );
    const page = await throughPages(new BrowserSession(t.url), `/oauth/authorize?${new URLSearchParams({ client_id: verified.clientId, request_uri: pushed.request_uri })}`);
    expectFormPostPage(page, verified.redirectUri);
    expect(postedForm(page).fields).toMatchObject({ code: expect.any(String), state: 'pushed' });
  });

  describe('for an unverified application', () => {
    let clientId: string;
    const redirectUri = 'https://unverified.example/cb';

    beforeAll(async () => {
      const owner = await createSignInUser(t.app);
      const { client } = await t.app.get(DeveloperService).registerApplication(
        { userId: owner.id, ip: '203.0.113.9' },
        { name: 'Unverified App', redirectUris: [redirectUri], type: 'confidential', scopes: ['profile', 'read:startups'] },
      );
      clientId = client.clientId;
    });

    it('holds an error the user did not act for on a page whose button posts it, with no script', async () => {
      const res = await new BrowserSession(t.url).get(authorizePath(clientId, redirectUri, { scope: 'admin' }));
      expect(res.status).toBe(400);
      expect(res.location).toBeUndefined();
      expect(scriptsOf(res.text)).toEqual([]);
      const policy = res.headers.get('content-security-policy')!;
      expect(policy).not.toContain('script-src');
      expect(policy).toContain("form-action 'self' https://unverified.example;");
      expect(postedForm(res)).toEqual({ action: redirectUri, fields: { error: 'invalid_scope', error_description: expect.any(String), state: 'st-1', iss: t.url } });
    });

    it('posts at once an error the user acted for (deny on the consent page)', async () => {
      const page = await throughPages(new BrowserSession(t.url), authorizePath(clientId, redirectUri), 'deny');
      expectFormPostPage(page, redirectUri);
      expect(postedForm(page).fields).toMatchObject({ error: 'access_denied', state: 'st-1' });
    });
  });

  it('hostile response_mode values: form_post, or a clear invalid_request, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('form_post', 'query', 'form_post\u0000', '<script>', 'form_post&response_mode=query')), async (mode) => {
        const res = await new BrowserSession(t.url).get(authorizePath(verified.clientId, verified.redirectUri, { response_mode: mode, prompt: 'none' }));
        if (mode === 'form_post') {
          expect(postedForm(res).fields).toMatchObject({ error: 'login_required' });
        } else {
          expect(res.status).toBe(302);
          const error = new URL(res.location!).searchParams.get('error');
          // Empty or `query`: the default mode, and prompt=none's own error.
          expect(error).toBe(mode === '' || mode === 'query' ? 'login_required' : 'invalid_request');
        }
      }),
      { numRuns: 60 },
    );
  });
});

import { DeveloperService } from '../../src/developer/developer.service';
import { s256Challenge } from '../../src/oauth/pkce';
import { authorizePath, BrowserResponse, BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { runCli } from '../helpers/processes';
import { startTestApp, TestApp } from '../helpers/test-app';

const CHALLENGE = s256Challenge('v'.repeat(43));
const STATE = 'st&te <1>';

/** The href of the one link of a page, entities decoded. */
function linkOf(html: string): string {
  const links = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1].replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!));
  expect(links).toHaveLength(1);
  return links[0];
}

/**
 * Applications registered in the developer portal are unverified until the operator runs
 * `clients:verify` (docs/integrate-with-oauth.md, SECURITY.md "Open redirect and phishing through
 * unverified applications"): their consent page says so and names where the user will be sent, and an
 * authorization error is not redirected to them (RFC 9700 §4.11.2) until the user has acted in the flow
 * or allowed the application before.
 */
describe('unverified applications at the authorization endpoint', () => {
  let t: TestApp;
  let owner: OAuthTestUser;
  let user: OAuthTestUser;
  let portalApp: OAuthTestClient;
  let operatorApp: OAuthTestClient;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createSignInUser(t.app);
    user = await createSignInUser(t.app);
    const { client, secret } = await t.app.get(DeveloperService).registerApplication(
      { userId: owner.id, ip: '203.0.113.9' },
      { name: 'Free Prizes', redirectUris: ['https://prizes.example/cb?x=1'], type: 'confidential', scopes: ['profile', 'read:startups'] },
    );
    portalApp = { id: client.id, clientId: client.clientId, clientSecret: secret, redirectUri: 'https://prizes.example/cb?x=1', name: client.name };
    // As `clients:create` makes it: the operator's own, verified from the start.
    operatorApp = await registerClient(t.app, { name: 'Operator App', redirectUris: ['https://operator.example/cb'] });
  });
  afterAll(() => t?.close());

  const request = (client: OAuthTestClient, change: Record<string, string | undefined> = {}) =>
    authorizePath({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      scope: 'profile',
      state: STATE,
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      ...change,
    });

  function expectHeldPage(res: BrowserResponse, error: string) {
    expect(res.status).toBe(400);
    expect(res.location).toBeUndefined();
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("form-action 'none'");
    expect(res.text).toContain(`<code>${error}</code>`);
    const link = new URL(linkOf(res.text));
    expect(`${link.origin}${link.pathname}`).toBe('https://prizes.example/cb');
    expect(Object.fromEntries(link.searchParams)).toEqual({ x: '1', error, error_description: expect.any(String), state: STATE, iss: t.url });
    return link;
  }

  function expectRedirect(res: BrowserResponse, origin: string, error: string) {
    expect(res.status).toBe(302);
    const location = new URL(res.location!);
    expect(location.origin).toBe(origin);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('state')).toBe(STATE);
  }

  it('starts a portal-registered application unverified', async () => {
    expect((await t.app.get(DeveloperService).applications(owner.id)).map((c) => [c.clientId, c.verified])).toEqual([[portalApp.clientId, false]]);
  });

  it('holds a crafted link\'s error on a 400 page with a link the user may follow, instead of redirecting', async () => {
    const en = await new BrowserSession(t.url).get(request(portalApp, { scope: 'profile admin' }));
    expectHeldPage(en, 'invalid_scope');
    expect(en.text).toContain('<bdi>Free Prizes</bdi> is an unverified application');
    expect(en.text).toContain('permissions that are unknown or not allowed');
    expect(en.text).toContain('Go back to <strong>prizes.example</strong>');
    // The error description names the crafted scope; only the link carries it, never the page's text.
    expect(en.text).not.toMatch(/>[^<]*admin is unknown/);

    const tr = await new BrowserSession(t.url, 'tr').get(request(portalApp, { response_type: 'token' }));
    expectHeldPage(tr, 'unsupported_response_type');
    expect(tr.text).toContain('<html lang="tr">');
    expect(tr.text).toContain('doğrulanmamış');
    expect(tr.text).toContain('<strong>prizes.example</strong> adresine dön');
  });

  it('redirects the same crafted link at once for a verified application', async () => {
    const res = await new BrowserSession(t.url).get(request(operatorApp, { scope: 'profile admin' }));
    expectRedirect(res, 'https://operator.example', 'invalid_scope');
  });

  it('holds prompt=none errors too, for a user who has not allowed the application', async () => {
    const anonymous = await new BrowserSession(t.url).get(request(portalApp, { prompt: 'none' }));
    expectHeldPage(anonymous, 'login_required');

    const browser = new BrowserSession(t.url);
    const stranger = await createSignInUser(t.app);
    // Signed in for the verified application (and allowed it): the session is real, the unverified one still never allowed.
    await runAuthorization(browser, request(operatorApp), stranger);
    expectHeldPage(await browser.get(request(portalApp, { prompt: 'none' })), 'consent_required');
    expectRedirect(await browser.get(request(operatorApp, { prompt: 'none', scope: 'read:startups' })), 'https://operator.example', 'consent_required');
  });

  it('says on the consent page that the application is not verified and where the user will be sent; a verified one says neither', async () => {
    for (const [language, label] of [
      ['en', 'not verified by the operator'],
      ['tr', 'doğrulanmamış'],
    ] as const) {
      const browser = new BrowserSession(t.url, language);
      const signIn = await browser.get(request(portalApp));
      const consent = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password });
      expect(consent.status).toBe(200);
      expect(consent.text).toContain('name="decision"');
      expect(consent.text).toContain(label);
      expect(consent.text).toContain('<strong>prizes.example</strong>');

      const verified = await browser.get(request(operatorApp));
      expect(verified.text).toContain('name="decision"');
      expect(verified.text).not.toMatch(/unverified|not verified|doğrulanmamış/);
      expect(verified.text).not.toContain('operator.example');
      expect(verified.text).not.toContain('class="warning"');
    }
  });

  it('redirects a deny on the unverified application\'s consent page: the user acted in this flow', async () => {
    const browser = new BrowserSession(t.url);
    const callback = await runAuthorization(browser, request(portalApp), await createSignInUser(t.app), 'deny');
    expect(callback.origin).toBe('https://prizes.example');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(STATE);
  });

  it('redirects at once for a user who has allowed the application before, and holds for another', async () => {
    const browser = new BrowserSession(t.url);
    const returning = await createSignInUser(t.app);
    const approved = await runAuthorization(browser, request(portalApp), returning);
    expect(approved.searchParams.get('code')).toBeTruthy();
    expectRedirect(await browser.get(request(portalApp, { scope: 'profile admin' })), 'https://prizes.example', 'invalid_scope');
    // prompt=none for a scope not yet allowed: consent_required, redirected, since the user allowed the application before.
    expectRedirect(await browser.get(request(portalApp, { prompt: 'none', scope: 'read:startups' })), 'https://prizes.example', 'consent_required');

    const other = new BrowserSession(t.url);
    await runAuthorization(other, request(operatorApp), await createSignInUser(t.app));
    expectHeldPage(await other.get(request(portalApp, { scope: 'profile admin' })), 'invalid_scope');
  });

  it('redirects at once once the operator runs clients:verify, and holds again after clients:unverify', async () => {
    const crafted = request(portalApp, { scope: 'profile admin' });
    const verified = await runCli(['clients:verify', portalApp.clientId, '--json'], t.env);
    expect(verified.json).toEqual({ client_id: portalApp.clientId, verified: true });
    expectRedirect(await new BrowserSession(t.url).get(crafted), 'https://prizes.example', 'invalid_scope');
    const consent = await new BrowserSession(t.url).get(request(portalApp));
    expect(consent.status).toBe(200);

    const unverified = await runCli(['clients:unverify', portalApp.clientId, '--json'], t.env);
    expect(unverified.json).toEqual({ client_id: portalApp.clientId, verified: false });
    expectHeldPage(await new BrowserSession(t.url).get(crafted), 'invalid_scope');
  });
});

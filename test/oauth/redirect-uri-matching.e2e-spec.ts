import { DataSource } from 'typeorm';
import { Client } from '../../src/clients/client.entity';
import { s256Challenge } from '../../src/oauth/pkce';
import { http } from '../helpers/http';
import { authorizePath, basicAuth, BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

const VERIFIER = 'v'.repeat(43);

/**
 * Which redirect URIs the authorization server sends a browser to (docs/integrate-with-oauth.md): the
 * registered string exactly (RFC 9700 §4.1.3), except that a registered http URI on a loopback IP
 * literal matches the same URI with any port (RFC 8252 §7.3), at /oauth/authorize and, through the
 * code, at the token endpoint. And what of a redirect URI reaches the pages' Content-Security-Policy.
 */
describe('redirect URI matching', () => {
  let t: TestApp;
  let user: OAuthTestUser;
  let native: OAuthTestClient;
  let nativeV6: OAuthTestClient;
  let web: OAuthTestClient;

  beforeAll(async () => {
    t = await startTestApp();
    user = await createSignInUser(t.app);
    native = await registerClient(t.app, { name: 'Desktop app', redirectUris: ['http://127.0.0.1:1234/cb', 'http://localhost:1234/cb'] });
    nativeV6 = await registerClient(t.app, { name: 'Desktop app v6', type: 'public', redirectUris: ['http://[::1]/cb'] });
    web = await registerClient(t.app, { name: 'Web app', redirectUris: ['https://app.example:8443/cb'] });
  });
  afterAll(() => t.close());

  const request = (client: OAuthTestClient, redirectUri: string) =>
    authorizePath({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: redirectUri,
      scope: 'profile',
      state: 'st',
      code_challenge: s256Challenge(VERIFIER),
      code_challenge_method: 'S256',
    });

  const redeem = (client: OAuthTestClient, code: string, redirectUri: string) =>
    http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(client.clientSecret ? { authorization: basicAuth(client.clientId, client.clientSecret) } : {}) },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: VERIFIER, ...(client.clientSecret ? {} : { client_id: client.clientId }) }).toString(),
    });

  async function expectNoRedirect(client: OAuthTestClient, redirectUri: string) {
    const res = await new BrowserSession(t.url).get(request(client, redirectUri));
    expect([redirectUri, res.status, res.location]).toEqual([redirectUri, 400, undefined]);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('The return address (redirect_uri) is not registered for this application.');
  }

  describe('loopback IP literals: any port (RFC 8252 §7.3)', () => {
    it('sends the code to the port the native app asked for, and the token endpoint wants that same URI', async () => {
      const asked = 'http://127.0.0.1:5555/cb';
      const browser = new BrowserSession(t.url);
      const back = await runAuthorization(browser, request(native, asked), user);
      expect(`${back.origin}${back.pathname}`).toBe(asked);
      expect(back.searchParams.get('state')).toBe('st');
      const code = back.searchParams.get('code')!;

      // RFC 6749 §4.1.3: the redirect_uri of the token request is the one of the authorization request,
      // not the registered one.
      const registered = await redeem(native, code, 'http://127.0.0.1:1234/cb');
      expect([registered.status, registered.body.error]).toEqual([400, 'invalid_grant']);
      const otherPort = await redeem(native, code, 'http://127.0.0.1:6666/cb');
      expect([otherPort.status, otherPort.body.error]).toEqual([400, 'invalid_grant']);
      const ok = await redeem(native, code, asked);
      expect(ok.status).toBe(200);
      expect(ok.body.access_token).toMatch(/^sp_at_/);
    });

    it('sends errors to that port too, and the consent form may end up there', async () => {
      const browser = new BrowserSession(t.url);
      const denied = await runAuthorization(browser, `${request(native, 'http://127.0.0.1:5556/cb')}&prompt=consent`, user, 'deny');
      expect(denied.toString()).toMatch(/^http:\/\/127\.0\.0\.1:5556\/cb\?error=access_denied&/);
      const page = await browser.get(request(native, 'http://127.0.0.1:5557/cb').replace('scope=profile', 'scope=profile+read%3Astartups'));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:5557;");
      const refused = await browser.get(request(native, 'http://127.0.0.1:5558/cb').replace('response_type=code', 'response_type=token'));
      expect(refused.location).toMatch(/^http:\/\/127\.0\.0\.1:5558\/cb\?error=unsupported_response_type&/);
    });

    it('works for [::1] registered without a port, for a public client', async () => {
      const asked = 'http://[::1]:49152/cb';
      const back = await runAuthorization(new BrowserSession(t.url), request(nativeV6, asked), user);
      expect(`${back.origin}${back.pathname}`).toBe(asked);
      const ok = await redeem(nativeV6, back.searchParams.get('code')!, asked);
      expect(ok.status).toBe(200);
    });

    it.each([
      ['another path', 'http://127.0.0.1:5555/callback'],
      ['a path below', 'http://127.0.0.1:5555/cb/x'],
      ['a query', 'http://127.0.0.1:5555/cb?x=1'],
      ['https instead of http', 'https://127.0.0.1:5555/cb'],
      ['another loopback address', 'http://127.0.0.2:5555/cb'],
      ['the IPv6 loopback for an IPv4 registration', 'http://[::1]:5555/cb'],
      ['localhost, whose port is fixed', 'http://localhost:5555/cb'],
      ['a host that is not loopback', 'http://app.example:5555/cb'],
      ['a fragment', 'http://127.0.0.1:5555/cb#x'],
      ['user info', 'http://evil.example@127.0.0.1:5555/cb'],
      ['a form the URL parser would rewrite', 'http://127.0.0.1:5555/x/../cb'],
    ])('still refuses %s with the no-redirect 400 page', async (_case, redirectUri) => {
      await expectNoRedirect(native, redirectUri);
    });
  });

  describe('every other host: exact string equality (RFC 9700 §4.1.3)', () => {
    it('accepts the registered URI only', async () => {
      const back = await runAuthorization(new BrowserSession(t.url), request(web, 'https://app.example:8443/cb'), user);
      expect(back.toString()).toMatch(/^https:\/\/app\.example:8443\/cb\?code=/);
    });

    it.each(['https://app.example:9443/cb', 'https://app.example/cb', 'https://app.example:443/cb', 'http://app.example:8443/cb'])('refuses %s', async (redirectUri) => {
      await expectNoRedirect(web, redirectUri);
    });

    it('refuses localhost on another port than registered', async () => {
      await expectNoRedirect(native, 'http://localhost:1235/cb');
    });
  });

  describe('a redirect URI stored before the rules refused it', () => {
    it('never writes its own sources or directives into the sign-in and consent pages\' policy', async () => {
      // A row from before `;` was refused: its origin, `https://legacy.example;script-src`, would add a directive.
      const legacy = 'https://legacy.example;script-src/cb';
      const client = await registerClient(t.app, { name: 'Legacy', redirectUris: ['https://legacy.example/cb'] });
      await t.app.get(DataSource).getRepository(Client).update({ clientId: client.clientId }, { redirectUris: [legacy] });

      const browser = new BrowserSession(t.url);
      const signIn = await browser.get(request(client, legacy));
      expect(signIn.status).toBe(200);
      const policy = signIn.headers.get('content-security-policy')!;
      expect(policy).toContain("form-action 'self';");
      expect(policy).not.toContain('legacy.example');
      // The sign-in page's own directives only: its script-src is this server's passkey scripts ('self').
      expect(policy.split('; ').map((d) => d.split(' ')[0])).toEqual(['default-src', 'style-src', 'script-src', 'img-src', 'form-action', 'frame-ancestors', 'base-uri']);
      expect(policy).toContain("script-src 'self';");

      const consent = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password });
      expect(consent.status).toBe(200);
      expect(consent.headers.get('content-security-policy')).not.toContain('legacy.example');
    });
  });

  describe('application names on the pages', () => {
    it('isolates a name in <bdi>, so that even a name stored before the rules cannot reorder the sentence', async () => {
      const client = await registerClient(t.app, { name: 'Plain', redirectUris: ['https://names.example/cb'] });
      // U+202E RIGHT-TO-LEFT OVERRIDE: without isolation, the rest of the sentence would read backwards.
      const legacyName = 'Bank \u202eevil';
      await t.app.get(DataSource).getRepository(Client).update({ clientId: client.clientId }, { name: legacyName });
      const browser = new BrowserSession(t.url);
      const signIn = await browser.get(request(client, 'https://names.example/cb'));
      expect(signIn.text).toContain(`<p><bdi>${legacyName}</bdi> wants to access your account. Sign in to continue.</p>`);
      const consent = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password });
      expect(consent.text).toContain(`<p id="intro"><bdi>${legacyName}</bdi> would like to use your account to:</p>`);
    });
  });
});

// The module object itself (not a namespace copy), so that a spy on it sees every call the service makes.
import crypto from 'node:crypto';
import { ApiKeysService } from '../../src/api-keys/api-keys.service';
import { s256Challenge } from '../../src/oauth/pkce';
import { SessionService } from '../../src/web/session/session.service';
import { PasswordHasher } from '../../src/users/password-hasher';
import { createTestApiKey } from '../helpers/api-keys';
import { http } from '../helpers/http';
import { authorizePath, basicAuth, BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * The security review of SECURITY.md, pinned: each control the review relies on has a test here (or in
 * the suite SECURITY.md names for it). The threats: open redirects, session theft, cross-site request
 * forgery, clickjacking, timing attacks on secret comparison.
 */
const REDIRECT_URI = 'https://app.example/cb';
const VERIFIER = 'r'.repeat(43);

describe('security review', () => {
  let t: TestApp;
  let client: OAuthTestClient;
  let user: OAuthTestUser;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ANONYMOUS: '100000' });
    client = await registerClient(t.app, { redirectUris: [REDIRECT_URI, 'http://localhost:8080/callback'] });
    user = await createSignInUser(t.app);
  });
  afterAll(() => t.close());

  const valid = (redirectUri = REDIRECT_URI) => ({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: redirectUri,
    scope: 'profile',
    state: 's',
    code_challenge: s256Challenge(VERIFIER),
    code_challenge_method: 'S256',
  });

  describe('redirect URIs: exact string match, no open redirect (RFC 9700 §4.1.3)', () => {
    it.each([
      ['another host', 'https://evil.example/cb'],
      ['a host that ends like the registered one', 'https://app.example.evil.example/cb'],
      ['user info that names the registered host', 'https://app.example@evil.example/cb'],
      ['the registered URI as user info', 'https://app.example/cb@evil.example'],
      ['a backslash', 'https://app.example\\@evil.example/cb'],
      ['plain http', 'http://app.example/cb'],
      ['another port', 'https://app.example:444/cb'],
      ['an explicit default port', 'https://app.example:443/cb'],
      ['a path below', 'https://app.example/cb/x'],
      ['a dot segment', 'https://app.example/cb/../cb'],
      ['percent-encoding', 'https://app.example/%63b'],
      ['a fragment', 'https://app.example/cb#x'],
      ['a trailing dot on the host', 'https://app.example./cb'],
      ['a protocol-relative URI', '//evil.example/cb'],
      ['a javascript: URI', 'javascript:alert(1)'],
      ['localhost by another name', 'http://127.0.0.1:8080/callback'],
    ])('refuses %s with an HTML page and sends the browser nowhere', async (_case, redirectUri) => {
      const res = await new BrowserSession(t.url).get(authorizePath(valid(redirectUri)));
      expect(res.status).toBe(400);
      expect(res.location).toBeUndefined();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).not.toContain('evil.example');
    });

    it('sends errors and codes only to the exact registered URI', async () => {
      const browser = new BrowserSession(t.url);
      const error = await browser.get(authorizePath({ ...valid(), response_type: 'token' }));
      expect(error.status).toBe(302);
      expect(error.location).toMatch(/^https:\/\/app\.example\/cb\?error=unsupported_response_type&/);
      const page = await browser.get(authorizePath(valid()));
      const consent = await browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: user.email, password: user.password });
      const approved = await browser.post('/oauth/consent', { ...hiddenInputs(consent.text), decision: 'approve' });
      expect(approved.location).toMatch(/^https:\/\/app\.example\/cb\?code=sp_ac_[A-Za-z0-9_-]+&state=s&iss=/);
    });

    it('binds the code to the redirect URI it was issued for', async () => {
      const back = await runAuthorization(new BrowserSession(t.url), authorizePath(valid('http://localhost:8080/callback')), user);
      const code = back.searchParams.get('code')!;
      const res = await http(t.url, '/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(client.clientId, client.clientSecret!) },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER }).toString(),
      });
      expect([res.status, res.body.error]).toEqual([400, 'invalid_grant']);
    });
  });

  describe('the session cookie and CSRF', () => {
    it('is HttpOnly, SameSite=Lax, sealed, and replaced at sign-in', async () => {
      const browser = new BrowserSession(t.url);
      const page = await browser.get(authorizePath(valid()));
      const cookie = page.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^sp_session=v1\.[A-Za-z0-9_-]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
      const before = browser.cookies.get('sp_session');
      await browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: user.email, password: user.password });
      expect(browser.cookies.get('sp_session')).not.toBe(before);
      // A sealed cookie altered by one character is no session at all. The character changed is one in the
      // middle: the last character of base64url may carry only padding bits, and changing those changes no byte.
      const tampered = new BrowserSession(t.url);
      const sealed = browser.cookies.get('sp_session')!;
      const at = sealed.length - 12;
      tampered.cookies.set('sp_session', `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`);
      const again = await tampered.get(authorizePath(valid()));
      expect(again.text).toContain('name="password"');
    });

    it('refuses a CSRF token issued to another session', async () => {
      const victim = new BrowserSession(t.url);
      const attacker = new BrowserSession(t.url);
      await victim.get(authorizePath(valid()));
      const attackerPage = await attacker.get(authorizePath(valid()));
      // The attacker's own token and pending request, posted with the victim's cookie.
      const res = await victim.post('/oauth/sign-in', { ...hiddenInputs(attackerPage.text), email: user.email, password: user.password });
      expect(res.status).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
    });

    it('refuses a consent post from another site even with a valid session and token', async () => {
      const browser = new BrowserSession(t.url);
      const page = await browser.get(authorizePath({ ...valid(), prompt: 'consent' }));
      const consent = await browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: user.email, password: user.password });
      const res = await browser.post('/oauth/consent', { ...hiddenInputs(consent.text), decision: 'approve' }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
      expect(res.status).toBe(403);
      expect(res.location).toBeUndefined();
    });
  });

  describe('clickjacking and browser hardening headers', () => {
    it.each([
      ['the sign-in page', () => authorizePath(valid())],
      ['an authorization error page', () => authorizePath({ ...valid(), client_id: 'nobody' })],
      ['the API', () => '/api/public/v1/industries'],
      ['an API error', () => '/api/public/v1/nowhere'],
      ['the reference', () => '/docs'],
    ])('forbids framing of %s and sends the hardening headers', async (_case, path) => {
      const res = await fetch(t.url + path(), { redirect: 'manual' });
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-powered-by')).toBeNull();
      await res.arrayBuffer();
    });

    it('sends the document-only hardening headers with every page and the reference, and leaves them off JSON answers', async () => {
      const documentOnly = ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection'];
      for (const path of [authorizePath(valid()), authorizePath({ ...valid(), client_id: 'nobody' }), '/docs']) {
        const res = await fetch(t.url + path, { redirect: 'manual' });
        expect([path, res.headers.get('content-type')]).toEqual([path, expect.stringMatching(/^text\/html/)]);
        for (const name of documentOnly) expect([path, name, res.headers.get(name)]).toEqual([path, name, expect.any(String)]);
        await res.arrayBuffer();
      }
      // A redirect too: a navigation hop without the opener policy would cut a popup from its opener.
      const hop = await fetch(t.url + authorizePath({ ...valid(), prompt: 'none' }), { redirect: 'manual' });
      expect(hop.status).toBe(302);
      for (const name of documentOnly) expect(['redirect', name, hop.headers.get(name)]).toEqual(['redirect', name, expect.any(String)]);
      for (const path of ['/api/public/v1/industries', '/api/public/v1/nowhere', '/.well-known/openid-configuration']) {
        const res = await fetch(t.url + path);
        expect([path, res.headers.get('content-type')]).toEqual([path, expect.stringMatching(/^application\/json/)]);
        for (const name of documentOnly) expect([path, name, res.headers.get(name)]).toEqual([path, name, null]);
        expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
        await res.arrayBuffer();
      }
    });

    it('lets the pages run no script but this server’s files, and post forms only to this server and the client', async () => {
      const res = await fetch(t.url + authorizePath(valid()));
      const policy = res.headers.get('content-security-policy')!;
      expect(policy).toContain("default-src 'none'");
      // The sign-in page loads the passkey scripts this server serves, and no inline script (docs/second-factor.md).
      expect(policy).toContain("script-src 'self';");
      expect(policy).not.toContain('unsafe-inline');
      expect(policy).toContain("form-action 'self' https://app.example");
      await res.arrayBuffer();
    });
  });

  describe('secret comparisons are constant-time', () => {
    let compare: jest.SpyInstance;
    beforeEach(() => {
      compare = jest.spyOn(crypto, 'timingSafeEqual');
    });
    afterEach(() => compare.mockRestore());

    const token = (authorization: string) =>
      http(t.url, '/oauth/introspect', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization }, body: 'token=x' });

    it('compares a client secret with timingSafeEqual, also for an unknown client', async () => {
      expect((await token(basicAuth(client.clientId, client.clientSecret!))).status).toBe(200);
      expect(compare).toHaveBeenCalledTimes(1);
      expect((await token(basicAuth(client.clientId, 'sp_cs_wrong'))).status).toBe(401);
      expect((await token(basicAuth('sp_client_nobody', 'sp_cs_wrong'))).status).toBe(401);
      expect(compare).toHaveBeenCalledTimes(3);
    });

    it('compares API keys, CSRF tokens and password hashes with timingSafeEqual', async () => {
      const { key } = await createTestApiKey(t.app);
      await t.app.get(ApiKeysService, { strict: false }).authenticate(key);
      expect(compare).toHaveBeenCalled();
      compare.mockClear();
      const sessions = t.app.get(SessionService, { strict: false });
      const session = { sid: 'a-session', exp: Date.now() + 60_000 };
      expect(sessions.verifyCsrf(session, sessions.csrfToken(session))).toBe(true);
      expect(sessions.verifyCsrf(session, sessions.csrfToken({ ...session, sid: 'another' }))).toBe(false);
      expect(compare).toHaveBeenCalledTimes(2);
      compare.mockClear();
      const hash = await PasswordHasher.hash('correct horse battery');
      expect(await PasswordHasher.verify('wrong horse battery!', hash)).toBe(false);
      expect(compare).toHaveBeenCalledTimes(1);
    });
  });
});

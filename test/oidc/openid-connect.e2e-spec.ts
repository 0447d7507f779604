import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import { decodeProtectedHeader } from 'jose';
import { http } from '../helpers/http';
import { BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { TestClock } from '../helpers/clock';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * OpenID Connect (docs/integrate-with-oauth.md, OpenID Connect) with openid-client as the relying party, unchanged: discovery, the code
 * flow with PKCE and nonce, the ID token verified by the library against the JWKS, UserInfo, refresh,
 * max_age, login_hint and RP-Initiated Logout.
 */
describe('OpenID Connect with openid-client', () => {
  let t: TestApp;
  let user: OAuthTestUser;
  let rs: OAuthTestClient;
  let es: OAuthTestClient;
  const REDIRECT = 'http://127.0.0.1:9/callback';

  beforeAll(async () => {
    t = await startTestApp({ ID_TOKEN_TTL: '600' });
    user = await createSignInUser(t.app);
    rs = await registerClient(t.app, { scopes: ['openid', 'profile', 'email', 'read:startups'], redirectUris: [REDIRECT, 'http://127.0.0.1:9/signed-out'] });
    es = await registerClient(t.app, { scopes: ['openid', 'email'], redirectUris: [REDIRECT], idTokenSignedResponseAlg: 'ES256' });
  });
  afterAll(() => t.close());

  async function configFor(c: OAuthTestClient, alg: 'RS256' | 'ES256' = 'RS256'): Promise<client.Configuration> {
    const config = await client.discovery(new URL(t.url), c.clientId, { client_secret: c.clientSecret, id_token_signed_response_alg: alg }, undefined, {
      execute: [client.allowInsecureRequests],
    });
    // The library verifies the ID token's signature against the JWKS, not only its claims.
    client.enableNonRepudiationChecks(config);
    return config;
  }

  /** The browser part through the real pages, then the library's code exchange with every check on. */
  async function signIn(config: client.Configuration, browser: BrowserSession, scope: string, extra: Record<string, string> = {}) {
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
      ...extra,
    });
    const callback = await runAuthorization(browser, url.href, user);
    const maxAge = extra.max_age === undefined ? undefined : Number(extra.max_age);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state, idTokenExpected: true, maxAge });
    return { tokens, nonce };
  }

  const atHash = (token: string) => createHash('sha256').update(token).digest().subarray(0, 16).toString('base64url');

  it('serves the provider metadata at /.well-known/openid-configuration, the same document as RFC 8414', async () => {
    const config = await configFor(rs);
    const metadata = config.serverMetadata();
    expect(metadata).toMatchObject({
      issuer: t.url,
      jwks_uri: `${t.url}/oauth/jwks`,
      userinfo_endpoint: `${t.url}/oauth/userinfo`,
      end_session_endpoint: `${t.url}/oauth/logout`,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256', 'ES256'],
      response_types_supported: ['code'],
      scopes_supported: expect.arrayContaining(['openid', 'profile', 'email']),
      claims_supported: expect.arrayContaining(['sub', 'name', 'email', 'email_verified']),
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'],
    });
    const oidc = await http(t.url, '/.well-known/openid-configuration');
    const oauth = await http(t.url, '/.well-known/oauth-authorization-server');
    expect(oidc.body).toEqual(oauth.body);
    expect(oidc.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('publishes the public keys only, cacheable, one active key per algorithm', async () => {
    const res = await http(t.url, '/oauth/jwks');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    const keys = res.body.keys as Array<Record<string, string>>;
    expect(keys.map((k) => `${k.kty}/${k.alg}/${k.use}`).sort()).toEqual(['EC/ES256/sig', 'RSA/RS256/sig']);
    for (const key of keys) {
      expect(key.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
      for (const privateMember of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']) expect(key).not.toHaveProperty(privateMember);
    }
  });

  it('issues an RS256 ID token the library verifies, with every claim of the contract', async () => {
    const config = await configFor(rs);
    const before = Math.floor(Date.now() / 1000);
    const { tokens, nonce } = await signIn(config, new BrowserSession(t.url), 'openid profile email');
    const claims = tokens.claims()!;
    expect(claims).toEqual({
      iss: t.url,
      sub: String(user.id),
      aud: rs.clientId,
      exp: claims.iat + 600,
      iat: expect.any(Number),
      auth_time: expect.any(Number),
      // RFC 8176: signed in with a password (docs/second-factor.md).
      amr: ['pwd'],
      nonce,
      at_hash: atHash(tokens.access_token),
      name: expect.stringMatching(/^Ada /),
      email: user.email,
      email_verified: true,
    });
    expect(claims.auth_time).toBeGreaterThanOrEqual(before - 1);
    const header = decodeProtectedHeader(tokens.id_token!);
    expect(header).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    const jwks = (await http(t.url, '/oauth/jwks')).body.keys as Array<{ kid: string; alg: string }>;
    expect(jwks.find((k) => k.kid === header.kid)?.alg).toBe('RS256');

    // UserInfo answers the same subject and claims.
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toEqual({ sub: String(user.id), name: claims.name, email: user.email, email_verified: true });
  });

  it('signs ES256 for a client registered for it', async () => {
    const { tokens } = await signIn(await configFor(es, 'ES256'), new BrowserSession(t.url), 'openid email');
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('ES256');
    expect(tokens.claims()).toMatchObject({ aud: es.clientId, email: user.email, email_verified: true });
    expect(tokens.claims()).not.toHaveProperty('name');
  });

  it('issues a new ID token on refresh, same subject and sign-in time, no nonce', async () => {
    const config = await configFor(rs);
    const { tokens } = await signIn(config, new BrowserSession(t.url), 'openid profile');
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    const first = tokens.claims()!;
    const again = refreshed.claims()!;
    expect(refreshed.id_token).not.toBe(tokens.id_token);
    expect(again).toMatchObject({ iss: t.url, sub: first.sub, aud: rs.clientId, auth_time: first.auth_time, at_hash: atHash(refreshed.access_token), name: first.name });
    expect(again).not.toHaveProperty('nonce');
  });

  it('gives no ID token to a grant without openid', async () => {
    const config = await configFor(rs);
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'profile', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    const callback = await runAuthorization(new BrowserSession(t.url), url.href, user);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, idTokenExpected: false });
    expect(tokens.id_token).toBeUndefined();
    expect(tokens.scope).toBe('profile');
  });

  it('asks for the password again when the sign-in is older than max_age, once for max_age=0', async () => {
    // The app's clock stands still and moves when the test moves it: the sign-in is exactly as old as
    // the test says, and the ID tokens' auth_time (whole seconds) tells the two sign-ins apart.
    const clock = new TestClock(t.app);
    try {
      const config = await configFor(rs);
      const browser = new BrowserSession(t.url);
      const { tokens: first } = await signIn(config, browser, 'openid');
      // Signed in and consented: a plain request goes straight back with a code.
      const quiet = await browser.get(client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', max_age: '3600' }).href);
      expect(quiet.status).toBe(302);
      // max_age=1 on both sides of its end: a sign-in exactly one second old is still fresh, a millisecond
      // later it is not.
      const maxAgeOne = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', max_age: '1' }).href;
      clock.advance(1000);
      expect((await browser.get(maxAgeOne)).status).toBe(302);
      clock.advance(1);
      const asked = await browser.get(maxAgeOne);
      expect(asked.status).toBe(200);
      expect(asked.text).toContain('name="password"');

      const page = await browser.get(client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', max_age: '0' }).href);
      expect(page.status).toBe(200);
      expect(page.text).toContain('name="password"');
      // The fresh sign-in satisfies it: straight back with a code, no second sign-in page.
      const back = await browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: user.email, password: user.password });
      expect(back.status).toBe(303);
      expect(new URL(back.location!).searchParams.get('code')).toBeTruthy();

      // Through the library with max_age (it checks auth_time against it): the new sign-in time is stated.
      const { tokens } = await signIn(config, browser, 'openid', { max_age: '60' });
      expect(tokens.claims()!.auth_time).toBeGreaterThan(first.claims()!.auth_time!);
    } finally {
      clock.restore();
    }
  });

  it('pre-fills the email from login_hint', async () => {
    const config = await configFor(rs);
    const page = await new BrowserSession(t.url).get(
      client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', login_hint: 'hint<"&>@example.com' }).href,
    );
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/name="email"[^>]*value="hint&lt;&quot;&amp;&gt;@example.com"/);
  });

  describe('RP-Initiated Logout', () => {
    async function signedIn() {
      const config = await configFor(rs);
      const browser = new BrowserSession(t.url);
      const { tokens } = await signIn(config, browser, 'openid');
      return { config, browser, idToken: tokens.id_token! };
    }
    const stillSignedIn = async (browser: BrowserSession, config: client.Configuration) => {
      const res = await browser.get(client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }).href);
      return res.status === 302;
    };

    it('ends the session and returns to a registered address with state', async () => {
      const { config, browser, idToken } = await signedIn();
      const url = client.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: 'http://127.0.0.1:9/signed-out', state: 'bye 1' });
      const res = await browser.get(url.href);
      expect(res.status).toBe(302);
      expect(res.location).toBe('http://127.0.0.1:9/signed-out?state=bye+1');
      expect(res.headers.getSetCookie().join('\n')).toMatch(/sp_session=;/);
      expect(await stillSignedIn(browser, config)).toBe(false);
    });

    it('ends the session on the server: a copy of the cookie taken before logout no longer signs anyone in', async () => {
      const holderOf = (jar: Map<string, string>) => {
        const holder = new BrowserSession(t.url);
        for (const [name, value] of jar) holder.cookies.set(name, value);
        return holder;
      };
      for (const withAddress of [true, false]) {
        const { config, browser, idToken } = await signedIn();
        const copy = new Map(browser.cookies);
        expect(await stillSignedIn(holderOf(copy), config)).toBe(true);
        if (withAddress) {
          expect((await browser.get(client.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: REDIRECT }).href)).status).toBe(302);
        } else {
          // Without a hint the user confirms first (SECURITY.md "Forced sign-out").
          const page = await browser.get('/oauth/logout');
          expect((await browser.post('/oauth/logout', { ...hiddenInputs(page.text), decision: 'sign_out' })).status).toBe(200);
        }
        expect([withAddress, await stillSignedIn(holderOf(copy), config)]).toEqual([withAddress, false]);
        expect([withAddress, (await holderOf(copy).get('/account')).status]).toEqual([withAddress, 303]);
      }
    });

    it('refuses an unregistered address with a 400 page, no redirect, the session kept', async () => {
      const { config, browser, idToken } = await signedIn();
      for (const target of ['https://evil.example/', 'http://127.0.0.1:9/callback/', 'http://127.0.0.1:9/CALLBACK']) {
        const res = await browser.get(client.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: target }).href);
        expect([res.status, res.location]).toEqual([400, undefined]);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(res.text).toContain('post_logout_redirect_uri');
      }
      const forged = idToken.slice(0, -4) + (idToken.endsWith('AAAA') ? 'BBBB' : 'AAAA');
      const res = await browser.get(client.buildEndSessionUrl(config, { id_token_hint: forged, post_logout_redirect_uri: REDIRECT }).href);
      expect(res.status).toBe(400);
      expect(await stillSignedIn(browser, config)).toBe(true);
    });

    it('without a hint asks the signed-in user first; once confirmed, the session ends and the signed-out page shows, in tr and en', async () => {
      const { config, browser } = await signedIn();
      const page = await browser.get('/oauth/logout');
      expect(page.status).toBe(200);
      expect(page.text).toContain('Sign out of Startup Platform?');
      expect(await stillSignedIn(browser, config)).toBe(true);
      const res = await browser.post('/oauth/logout', { ...hiddenInputs(page.text), decision: 'sign_out' });
      expect(res.status).toBe(200);
      expect(res.text).toContain('You are signed out');
      expect(await stillSignedIn(browser, config)).toBe(false);
      const tr = await new BrowserSession(t.url, 'tr').get('/oauth/logout');
      expect(tr.text).toContain('Oturumunuz kapatıldı');
    });
  });
});

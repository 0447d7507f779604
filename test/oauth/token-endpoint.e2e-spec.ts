import { DataSource } from 'typeorm';
import { ClientsService } from '../../src/clients/clients.service';
import { s256Challenge } from '../../src/oauth/pkce';
import { TokenPurgeService } from '../../src/purge/token-purge.service';
import { http, HttpResponse } from '../helpers/http';
import { authorizePath, basicAuth, BrowserSession, createSignInUser, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { TestClock } from '../helpers/clock';
import { startTestApp, TestApp } from '../helpers/test-app';

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function expectOAuthError(res: HttpResponse, status: number, error: string, description?: string | RegExp) {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error });
  expect(Object.keys(res.body).sort()).toEqual(['error', 'error_description']);
  if (description) expect(res.body.error_description).toMatch(description);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('pragma')).toBe('no-cache');
}

describe('POST /oauth/token, /oauth/revoke and /oauth/introspect (docs/integrate-with-oauth.md)', () => {
  let t: TestApp;
  let user: OAuthTestUser;
  let app: OAuthTestClient;
  let other: OAuthTestClient;
  let spa: OAuthTestClient;
  let browser: BrowserSession;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ AUTH_CODE_TTL: '10' });
    db = t.app.get(DataSource);
    user = await createSignInUser(t.app);
    app = await registerClient(t.app, { redirectUris: ['https://app.example/cb'] });
    other = await registerClient(t.app, { redirectUris: ['https://other.example/cb'] });
    spa = await registerClient(t.app, { type: 'public', redirectUris: ['http://localhost:5173/cb'] });
    browser = new BrowserSession(t.url);
  });
  afterAll(() => t.close());

  /** A fresh code for `client` (with PKCE unless `pkce: false`). */
  async function code(client: OAuthTestClient, options: { pkce?: boolean; scope?: string } = {}): Promise<string> {
    const pkce = options.pkce ?? true;
    const url = authorizePath({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      scope: options.scope ?? 'profile read:startups',
      code_challenge: pkce ? s256Challenge(VERIFIER) : undefined,
      code_challenge_method: pkce ? 'S256' : undefined,
    });
    return (await runAuthorization(browser, url, user)).searchParams.get('code')!;
  }

  function token(form: Record<string, string>, headers: Record<string, string> = {}): Promise<HttpResponse> {
    return http(t.url, '/oauth/token', { method: 'POST', headers: { ...FORM, ...headers }, body: new URLSearchParams(form).toString() });
  }

  const asApp = () => ({ authorization: basicAuth(app.clientId, app.clientSecret!) });

  async function exchange(client: OAuthTestClient, theCode: string): Promise<HttpResponse> {
    const auth: Record<string, string> = client.clientSecret ? { authorization: basicAuth(client.clientId, client.clientSecret) } : {};
    const form: Record<string, string> = { grant_type: 'authorization_code', code: theCode, redirect_uri: client.redirectUri, code_verifier: VERIFIER };
    if (!client.clientSecret) form.client_id = client.clientId;
    return token(form, auth);
  }

  async function introspect(client: OAuthTestClient, value: string): Promise<any> {
    const res = await http(t.url, '/oauth/introspect', {
      method: 'POST',
      headers: { ...FORM, authorization: basicAuth(client.clientId, client.clientSecret!) },
      body: new URLSearchParams({ token: value }).toString(),
    });
    expect(res.status).toBe(200);
    return res.body;
  }

  describe('client authentication (RFC 6749 §2.3)', () => {
    it('answers a wrong Basic secret 401 invalid_client with a Basic challenge', async () => {
      const res = await token({ grant_type: 'authorization_code', code: 'x', redirect_uri: app.redirectUri }, { authorization: basicAuth(app.clientId, 'sp_cs_wrong') });
      expectOAuthError(res, 401, 'invalid_client', 'Client authentication failed.');
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
    });

    it('answers a malformed Basic header and an unknown Basic client the same way', async () => {
      for (const authorization of ['Basic !!!', basicAuth('sp_client_nobody', 'x'), 'Bearer abc']) {
        const res = await token({ grant_type: 'refresh_token', refresh_token: 'x' }, { authorization });
        expectOAuthError(res, 401, 'invalid_client');
        expect(res.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
      }
    });

    it('answers a wrong posted secret 401 invalid_client without a Basic challenge', async () => {
      const res = await token({ grant_type: 'refresh_token', refresh_token: 'x', client_id: app.clientId, client_secret: 'sp_cs_wrong' });
      expectOAuthError(res, 401, 'invalid_client');
      expect(res.headers.get('www-authenticate')).toBeNull();
    });

    it('answers a request without any client authentication 401 invalid_client', async () => {
      expectOAuthError(await token({ grant_type: 'refresh_token', refresh_token: 'x' }), 401, 'invalid_client', 'Client authentication is required.');
    });

    it('refuses a confidential client that authenticates with none', async () => {
      expectOAuthError(await token({ grant_type: 'refresh_token', refresh_token: 'x', client_id: app.clientId }), 401, 'invalid_client', /client secret/);
    });

    it('refuses two authentication methods in one request as invalid_request', async () => {
      const res = await token({ grant_type: 'refresh_token', refresh_token: 'x', client_id: app.clientId, client_secret: app.clientSecret! }, asApp());
      expectOAuthError(res, 400, 'invalid_request', /one client authentication method/);
    });

    it('accepts form-urlencoded credentials inside Basic (RFC 6749 §2.3.1)', async () => {
      const theCode = await code(app);
      // basicAuth form-encodes each part; a secret with no special characters is unchanged.
      const res = await token({ grant_type: 'authorization_code', code: theCode, redirect_uri: app.redirectUri, code_verifier: VERIFIER }, asApp());
      expect(res.status).toBe(200);
    });
  });

  describe('the request itself', () => {
    it.each([
      ['application/json', JSON.stringify({ grant_type: 'refresh_token' })],
      ['text/plain', 'grant_type=refresh_token'],
      ['application/xml', '<grant_type>refresh_token</grant_type>'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="grant_type"\r\n\r\nrefresh_token\r\n--x--'],
    ])('answers a %s body 400 invalid_request', async (contentType, body) => {
      for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/introspect']) {
        const res = await http(t.url, path, { method: 'POST', headers: { 'content-type': contentType, ...asApp() }, body });
        expectOAuthError(res, 400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded.');
      }
    });

    it('answers a request without a body 400 invalid_request', async () => {
      expectOAuthError(await http(t.url, '/oauth/token', { method: 'POST', headers: asApp() }), 400, 'invalid_request');
    });

    it.each(['grant_type', 'code', 'client_id'])('answers a repeated %s 400 invalid_request', async (name) => {
      const body = `grant_type=authorization_code&code=x&redirect_uri=${encodeURIComponent(app.redirectUri)}&client_id=${app.clientId}&client_secret=${app.clientSecret}&${name}=again`;
      const res = await http(t.url, '/oauth/token', { method: 'POST', headers: FORM, body });
      expectOAuthError(res, 400, 'invalid_request', `The parameter ${name} was sent more than once.`);
    });

    it('answers a missing grant_type invalid_request and an unknown one unsupported_grant_type', async () => {
      expectOAuthError(await token({}, asApp()), 400, 'invalid_request', /grant_type/);
      expectOAuthError(await token({ grant_type: 'password', username: 'a', password: 'b' }, asApp()), 400, 'unsupported_grant_type');
      expectOAuthError(await token({ grant_type: 'implicit' }, asApp()), 400, 'unsupported_grant_type', /authorization_code, refresh_token, client_credentials/);
    });
  });

  describe('grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6)', () => {
    it('answers the RFC 6749 §5.1 body with no-store headers', async () => {
      const res = await exchange(app, await code(app));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
      expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'profile read:startups' });
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('pragma')).toBe('no-cache');
      // Tokens are stored only as hashes.
      const rows = await db.query('SELECT token_hash FROM oauth_access_tokens UNION ALL SELECT token_hash FROM oauth_refresh_tokens');
      expect(JSON.stringify(rows)).not.toContain(res.body.access_token);
      expect(JSON.stringify(rows)).not.toContain(res.body.refresh_token);
    });

    it.each([
      ['code', 'The code parameter is missing.'],
      ['redirect_uri', 'The redirect_uri parameter is missing.'],
    ])('answers a missing %s invalid_request', async (name, description) => {
      const form: Record<string, string> = { grant_type: 'authorization_code', code: 'sp_ac_x', redirect_uri: app.redirectUri };
      delete form[name];
      expectOAuthError(await token(form, asApp()), 400, 'invalid_request', description);
    });

    it('answers an unknown code invalid_grant', async () => {
      expectOAuthError(
        await token({ grant_type: 'authorization_code', code: 'sp_ac_unknown', redirect_uri: app.redirectUri, code_verifier: VERIFIER }, asApp()),
        400,
        'invalid_grant',
        'The authorization code is invalid.',
      );
    });

    it('answers a code of another client invalid_grant', async () => {
      const theCode = await code(app);
      const res = await token(
        { grant_type: 'authorization_code', code: theCode, redirect_uri: app.redirectUri, code_verifier: VERIFIER },
        { authorization: basicAuth(other.clientId, other.clientSecret!) },
      );
      expectOAuthError(res, 400, 'invalid_grant', 'The authorization code was issued to another client.');
      // The rightful client can still redeem it.
      expect((await exchange(app, theCode)).status).toBe(200);
    });

    it('answers a redirect_uri that differs from the authorization request invalid_grant', async () => {
      const res = await token({ grant_type: 'authorization_code', code: await code(app), redirect_uri: 'https://app.example/cb/', code_verifier: VERIFIER }, asApp());
      expectOAuthError(res, 400, 'invalid_grant', 'redirect_uri does not match the authorization request.');
    });

    it.each([
      ['missing', undefined, 'The code_verifier parameter is missing.'],
      ['wrong', 'x'.repeat(43), 'code_verifier does not match the code_challenge.'],
      ['too short', VERIFIER.slice(0, 42), /43 to 128 characters/],
      ['too long', 'a'.repeat(129), /43 to 128 characters/],
      ['outside the character set', `${VERIFIER.slice(0, 42)}+`, /43 to 128 characters/],
    ])('answers a %s code_verifier invalid_grant', async (_case, verifier, description) => {
      const form: Record<string, string> = { grant_type: 'authorization_code', code: await code(app), redirect_uri: app.redirectUri };
      if (verifier !== undefined) form.code_verifier = verifier;
      expectOAuthError(await token(form, asApp()), 400, 'invalid_grant', description);
    });

    it('answers a code_verifier for a code issued without a challenge invalid_grant (RFC 9700 §2.1.1)', async () => {
      const theCode = await code(app, { pkce: false });
      const res = await token({ grant_type: 'authorization_code', code: theCode, redirect_uri: app.redirectUri, code_verifier: VERIFIER }, asApp());
      expectOAuthError(res, 400, 'invalid_grant', /had no code_challenge/);
      // Without the verifier the confidential client redeems it.
      expect((await token({ grant_type: 'authorization_code', code: theCode, redirect_uri: app.redirectUri }, asApp())).status).toBe(200);
    });

    it('lets a public client redeem with client_id and PKCE alone', async () => {
      const res = await exchange(spa, await code(spa));
      expect(res.status).toBe(200);
      expect(res.body.refresh_token).toMatch(/^sp_rt_/);
    });

    it('answers an expired code invalid_grant', async () => {
      const theCode = await code(app);
      // AUTH_CODE_TTL=10: the code is moved past its lifetime instead of waiting for it.
      const [{ id, ttl }] = await db.query('SELECT id, expires_at - created_at AS ttl FROM oauth_authorization_codes ORDER BY id DESC LIMIT 1');
      expect(Number(ttl)).toBe(10_000);
      await db.query(`UPDATE oauth_authorization_codes SET expires_at = ${Date.now() - 1} WHERE id = ${Number(id)}`);
      expectOAuthError(await exchange(app, theCode), 400, 'invalid_grant', 'The authorization code has expired.');
    });

    it('answers a second redemption invalid_grant and revokes every token issued from the code (RFC 6749 §4.1.2)', async () => {
      const theCode = await code(app);
      const first = await exchange(app, theCode);
      expect(first.status).toBe(200);
      // Tokens descended from the code by refresh go too.
      const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token }, asApp());
      expect(refreshed.status).toBe(200);
      expect((await introspect(app, refreshed.body.access_token)).active).toBe(true);

      expectOAuthError(await exchange(app, theCode), 400, 'invalid_grant', 'The authorization code has already been used.');
      for (const value of [first.body.access_token, refreshed.body.access_token, refreshed.body.refresh_token]) {
        expect(await introspect(app, value)).toEqual({ active: false });
      }
      expectOAuthError(await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token }, asApp()), 400, 'invalid_grant');
    });
    it('answers a redeemed code presented by another client invalid_grant and leaves the rightful client\'s tokens alive', async () => {
      const theCode = await code(app);
      const first = await exchange(app, theCode);
      expect(first.status).toBe(200);
      // Another registered client that learnt the code (a leaked redirect, a log) presents it: refused
      // as not its code, and the "already used" revocation (RFC 6749 §4.1.2) is not its to trigger.
      const res = await token(
        { grant_type: 'authorization_code', code: theCode, redirect_uri: app.redirectUri, code_verifier: VERIFIER },
        { authorization: basicAuth(other.clientId, other.clientSecret!) },
      );
      expectOAuthError(res, 400, 'invalid_grant', 'The authorization code was issued to another client.');
      expect((await introspect(app, first.body.access_token)).active).toBe(true);
      expect((await introspect(app, first.body.refresh_token)).active).toBe(true);
      const profile = await http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${first.body.access_token}` } });
      expect(profile.status).toBe(200);
    });
  });

  describe('grant_type=refresh_token (RFC 6749 §6, RFC 9700 §4.14.2)', () => {
    async function grant(scope = 'profile read:startups') {
      const res = await exchange(app, await code(app, { scope }));
      expect(res.status).toBe(200);
      return res.body as { access_token: string; refresh_token: string };
    }

    it('answers a missing refresh_token invalid_request and an unknown one invalid_grant', async () => {
      expectOAuthError(await token({ grant_type: 'refresh_token' }, asApp()), 400, 'invalid_request', /refresh_token/);
      expectOAuthError(await token({ grant_type: 'refresh_token', refresh_token: 'sp_rt_unknown' }, asApp()), 400, 'invalid_grant', 'The refresh token is invalid.');
    });

    it('answers a refresh token of another client invalid_grant and leaves it usable', async () => {
      const tokens = await grant();
      const res = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, { authorization: basicAuth(other.clientId, other.clientSecret!) });
      expectOAuthError(res, 400, 'invalid_grant', 'The refresh token is invalid.');
      expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, asApp())).status).toBe(200);
    });

    it('narrows the scope on request and refuses a wider or unknown one with invalid_scope', async () => {
      const tokens = await grant('profile');
      expectOAuthError(await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, scope: 'profile read:startups' }, asApp()), 400, 'invalid_scope');
      expectOAuthError(await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, scope: 'admin' }, asApp()), 400, 'invalid_scope');
      const wide = await grant();
      const narrowed = await token({ grant_type: 'refresh_token', refresh_token: wide.refresh_token, scope: 'read:startups' }, asApp());
      expect(narrowed.body.scope).toBe('read:startups');
      expect((await introspect(app, narrowed.body.access_token)).scope).toBe('read:startups');
    });

    it('rotates: the new refresh token works, the old one is retired', async () => {
      const tokens = await grant();
      const next = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, asApp());
      expect(next.status).toBe(200);
      expect(next.body.refresh_token).not.toBe(tokens.refresh_token);
      const [old] = await db.query(`SELECT rotated_at, family_id FROM oauth_refresh_tokens WHERE rotated_at IS NOT NULL ORDER BY id DESC LIMIT 1`);
      expect(old.rotated_at).not.toBeNull();
      const third = await token({ grant_type: 'refresh_token', refresh_token: next.body.refresh_token }, asApp());
      expect(third.status).toBe(200);
    });

    it('revokes the whole family when a retired refresh token comes back', async () => {
      const tokens = await grant();
      const next = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, asApp());
      const replay = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, asApp());
      expectOAuthError(replay, 400, 'invalid_grant', /already been used; its grant has been revoked/);
      for (const value of [tokens.access_token, next.body.access_token, next.body.refresh_token]) expect(await introspect(app, value)).toEqual({ active: false });
      expectOAuthError(await token({ grant_type: 'refresh_token', refresh_token: next.body.refresh_token }, asApp()), 400, 'invalid_grant', 'The refresh token has been revoked.');
    });

    it('answers an expired refresh token invalid_grant', async () => {
      const tokens = await grant();
      await db.query(`UPDATE oauth_refresh_tokens SET expires_at = ${Date.now() - 1} WHERE rotated_at IS NULL AND revoked_at IS NULL`);
      expectOAuthError(await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, asApp()), 400, 'invalid_grant', 'The refresh token has expired.');
    });
  });

  describe('revocation and introspection (RFC 7009, RFC 7662)', () => {
    const post = (path: string, client: OAuthTestClient, form: Record<string, string>) =>
      http(t.url, path, { method: 'POST', headers: { ...FORM, authorization: basicAuth(client.clientId, client.clientSecret!) }, body: new URLSearchParams(form).toString() });

    it('answers a missing token invalid_request on both', async () => {
      expectOAuthError(await post('/oauth/revoke', app, {}), 400, 'invalid_request', 'The token parameter is missing.');
      expectOAuthError(await post('/oauth/introspect', app, {}), 400, 'invalid_request', 'The token parameter is missing.');
    });

    it('requires client authentication on both', async () => {
      for (const path of ['/oauth/revoke', '/oauth/introspect']) {
        const res = await http(t.url, path, { method: 'POST', headers: { ...FORM, authorization: basicAuth(app.clientId, 'wrong') }, body: 'token=x' });
        expectOAuthError(res, 401, 'invalid_client');
        expect(res.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
      }
    });

    it('shows a client only its own tokens as active, and lets it revoke only its own', async () => {
      const tokens = (await exchange(app, await code(app))).body;
      expect((await post('/oauth/introspect', other, { token: tokens.access_token })).body).toEqual({ active: false });
      const revoked = await post('/oauth/revoke', other, { token: tokens.refresh_token });
      expect(revoked.status).toBe(200);
      expect(revoked.text).toBe('');
      expect(revoked.headers.get('cache-control')).toBe('no-store');
      const mine = await post('/oauth/introspect', app, { token: tokens.access_token });
      expect(mine.headers.get('cache-control')).toBe('no-store');
      expect(mine.body).toEqual({
        active: true,
        scope: 'profile read:startups',
        client_id: app.clientId,
        sub: String(user.id),
        exp: expect.any(Number),
        iat: expect.any(Number),
        token_type: 'Bearer',
        // RFC 8707: a grant that named no resource is for the public API.
        aud: `${t.url}/api/public/v1`,
      });
      expect(mine.body.exp - mine.body.iat).toBe(3600);
      expect(Math.abs(mine.body.iat - Date.now() / 1000)).toBeLessThan(60);
    });

    it('honours token_type_hint without trusting it', async () => {
      const tokens = (await exchange(app, await code(app))).body;
      expect((await post('/oauth/introspect', app, { token: tokens.refresh_token, token_type_hint: 'access_token' })).body).toMatchObject({ active: true, token_type: 'refresh_token' });
      expect((await post('/oauth/introspect', app, { token: tokens.access_token, token_type_hint: 'refresh_token' })).body).toMatchObject({ active: true, token_type: 'Bearer' });
      expect((await post('/oauth/revoke', app, { token: tokens.access_token, token_type_hint: 'refresh_token' })).status).toBe(200);
      expect((await post('/oauth/introspect', app, { token: tokens.access_token })).body).toEqual({ active: false });
    });

    it('answers 200 for an unknown token and inactive for anything expired', async () => {
      expect((await post('/oauth/revoke', app, { token: 'sp_at_nothing' })).status).toBe(200);
      expect((await post('/oauth/introspect', app, { token: 'sp_at_nothing' })).body).toEqual({ active: false });
      const tokens = (await exchange(app, await code(app))).body;
      await db.query(`UPDATE oauth_access_tokens SET expires_at = ${Date.now() - 1} WHERE revoked_at IS NULL`);
      expect((await post('/oauth/introspect', app, { token: tokens.access_token })).body).toEqual({ active: false });
    });

    it('tells an access token inactive on the same clock the API refuses it by (README.md, Tests)', async () => {
      const clock = new TestClock(t.app);
      try {
        const tokens = (await exchange(app, await code(app))).body;
        clock.advance(tokens.expires_in * 1000);
        const me = await http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${tokens.access_token}` } });
        expect(me.status).toBe(401);
        expect(await introspect(app, tokens.access_token)).toEqual({ active: false });
        // The refresh token lives longer: still active at that moment.
        expect(await introspect(app, tokens.refresh_token)).toMatchObject({ active: true, token_type: 'refresh_token' });
      } finally {
        clock.restore();
      }
    });

    it('lets a public client revoke with client_id alone, and refuses it introspection (RFC 7662 §2.1)', async () => {
      const tokens = (await exchange(spa, await code(spa))).body;
      const asSpa = (path: string, form: Record<string, string>) =>
        http(t.url, path, { method: 'POST', headers: FORM, body: new URLSearchParams({ ...form, client_id: spa.clientId }).toString() });
      const refused = await asSpa('/oauth/introspect', { token: tokens.access_token });
      expect([refused.status, refused.body.error, refused.headers.get('www-authenticate')]).toEqual([401, 'invalid_client', 'Basic realm="oauth"']);
      expect(JSON.stringify(refused.body)).not.toMatch(/"(sub|scope|cnf|active)"/);
      // Naming the public client with an empty Basic password is no authentication either.
      const basic = await http(t.url, '/oauth/introspect', {
        method: 'POST',
        headers: { ...FORM, authorization: `Basic ${Buffer.from(`${encodeURIComponent(spa.clientId)}:`).toString('base64')}` },
        body: new URLSearchParams({ token: tokens.access_token }).toString(),
      });
      expect([basic.status, basic.body.error]).toEqual([401, 'invalid_client']);
      expect((await http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(200);
      expect((await asSpa('/oauth/revoke', { token: tokens.refresh_token })).status).toBe(200);
      expect((await http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
    });
  });

  describe('housekeeping', () => {
    it('purges only what has expired', async () => {
      const live = (await exchange(app, await code(app))).body;
      const now = Date.now();
      const before = await db.query('SELECT (SELECT COUNT(*) FROM oauth_authorization_codes) AS codes, (SELECT COUNT(*) FROM oauth_access_tokens) AS access, (SELECT COUNT(*) FROM oauth_refresh_tokens) AS refresh');
      const expired = await db.query(
        `SELECT (SELECT COUNT(*) FROM oauth_authorization_codes WHERE expires_at <= ${now}) AS codes, (SELECT COUNT(*) FROM oauth_access_tokens WHERE expires_at <= ${now}) AS access, (SELECT COUNT(*) FROM oauth_refresh_tokens WHERE expires_at <= ${now}) AS refresh`,
      );
      const result = await t.app.get(TokenPurgeService).purge(now);
      expect(result).toEqual({ codes: Number(expired[0].codes), accessTokens: Number(expired[0].access), refreshTokens: Number(expired[0].refresh), securityEvents: 0, endedSessions: 0, dpopProofs: 0, pendingSignUps: 0, mailLinks: 0, unusedRegistrations: 0 });
      expect(result.accessTokens).toBeGreaterThan(0);
      const after = await db.query('SELECT (SELECT COUNT(*) FROM oauth_access_tokens) AS access');
      expect(Number(after[0].access)).toBe(Number(before[0].access) - result.accessTokens);
      expect((await introspect(app, live.access_token)).active).toBe(true);
      expect(await t.app.get(TokenPurgeService).purge(now)).toEqual({ codes: 0, accessTokens: 0, refreshTokens: 0, securityEvents: 0, endedSessions: 0, dpopProofs: 0, pendingSignUps: 0, mailLinks: 0, unusedRegistrations: 0 });
    });

    it('deletes a client together with its codes, tokens and consents', async () => {
      const doomed = await registerClient(t.app, { redirectUris: ['https://doomed.example/cb'] });
      await exchange(doomed, await code(doomed));
      const count = async () =>
        Number(
          (
            await db.query(
              `SELECT (SELECT COUNT(*) FROM oauth_access_tokens WHERE client_id = ${doomed.id}) + (SELECT COUNT(*) FROM oauth_refresh_tokens WHERE client_id = ${doomed.id}) + (SELECT COUNT(*) FROM oauth_authorization_codes WHERE client_id = ${doomed.id}) + (SELECT COUNT(*) FROM oauth_consents WHERE client_id = ${doomed.id}) AS n`,
            )
          )[0].n,
        );
      expect(await count()).toBe(4);
      await t.app.get(ClientsService).delete(doomed.clientId);
      expect(await count()).toBe(0);
    });
  });
});

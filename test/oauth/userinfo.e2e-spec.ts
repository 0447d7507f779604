import * as oauth from 'oauth4webapi';
import * as openid from 'openid-client';
import { DataSource } from 'typeorm';
import { http, HttpResponse } from '../helpers/http';
import { s256Challenge } from '../../src/oauth/pkce';
import { authorizePath, basicAuth, BrowserSession, createSignInUser, registerClient, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';
import { bearer, createTestUser, issueTestToken, TestUser } from '../helpers/tokens';

const USERINFO = '/oauth/userinfo';

/**
 * UserInfo (OpenID Connect Core §5.3, docs/integrate-with-oauth.md, OpenID Connect): GET and POST, read with oauth4webapi as a relying
 * party reads it, and the RFC 6750 §3 errors and challenges over plain HTTP.
 */
describe('GET and POST /oauth/userinfo', () => {
  let t: TestApp;
  let as: oauth.AuthorizationServer;
  let user: TestUser;
  const insecure = { [oauth.allowInsecureRequests]: true } as const;
  const rp: oauth.Client = { client_id: 'relying-party' };

  beforeAll(async () => {
    t = await startTestApp();
    user = await createTestUser(t.app, { name: 'Ayşe Yılmaz', email: 'ayse.userinfo@example.com' });
    const issuer = new URL(t.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  });
  afterAll(() => t.close());

  const get = (headers: Record<string, string> = {}, query = '') => http(t.url, `${USERINFO}${query}`, { headers });
  const post = (headers: Record<string, string> = {}, body?: string) => http(t.url, USERINFO, { method: 'POST', headers, body });

  function expectBearerError(res: HttpResponse, status: number, error: string, challenge: string) {
    expect({ status: res.status, body: res.body, challenge: res.headers.get('www-authenticate') }).toEqual({
      status,
      body: { error, error_description: expect.any(String) },
      challenge,
    });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
  }

  it('is advertised in the metadata', () => {
    expect(as.userinfo_endpoint).toBe(`${t.url}${USERINFO}`);
  });

  it.each([
    [['openid'], {}],
    [['openid', 'profile'], { name: 'Ayşe Yılmaz' }],
    [['openid', 'email'], { email: 'ayse.userinfo@example.com', email_verified: true }],
    [['openid', 'email', 'profile', 'read:startups'], { name: 'Ayşe Yılmaz', email: 'ayse.userinfo@example.com', email_verified: true }],
  ])('answers a token with %j the claims of those scopes, as plain JSON', async (scopes, claims) => {
    const { token } = await issueTestToken(t.app, { scopes, user });
    const response = await oauth.userInfoRequest(as, rp, token, insecure);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await oauth.processUserInfoResponse(as, rp, String(user.id), response);
    expect(body).toEqual({ sub: String(user.id), ...claims });
  });

  it('answers POST like GET, with the token in the header and any form body', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['openid', 'email'], user });
    const viaLibrary = await oauth.protectedResourceRequest(token, 'POST', new URL(`${t.url}${USERINFO}`), undefined, undefined, insecure);
    expect(viaLibrary.status).toBe(200);
    expect(await viaLibrary.json()).toEqual({ sub: String(user.id), email: 'ayse.userinfo@example.com', email_verified: true });
    const withForm = await post({ ...bearer(token), 'content-type': 'application/x-www-form-urlencoded' }, 'claims=ignored');
    expect([withForm.status, withForm.body.sub]).toEqual([200, String(user.id)]);
  });

  it('is read by openid-client as a relying party, with GET and with POST', async () => {
    const registered = await registerClient(t.app);
    const config = await openid.discovery(new URL(t.url), registered.clientId, registered.clientSecret, undefined, {
      algorithm: 'oauth2',
      execute: [openid.allowInsecureRequests],
    });
    const { token } = await issueTestToken(t.app, { scopes: ['openid', 'profile', 'email'], user, clientId: registered.id });
    expect(await openid.fetchUserInfo(config, token, String(user.id))).toEqual({
      sub: String(user.id),
      name: 'Ayşe Yılmaz',
      email: 'ayse.userinfo@example.com',
      email_verified: true,
    });
    // A wrong expected subject is caught by the library: sub is what it checks.
    await expect(openid.fetchUserInfo(config, token, 'someone-else')).rejects.toThrow();
    const posted = await openid.fetchProtectedResource(config, token, new URL(`${t.url}${USERINFO}`), 'POST');
    expect(await posted.json()).toMatchObject({ sub: String(user.id), name: 'Ayşe Yılmaz' });
  });

  it('answers a token from a real sign-in and consent with openid and email, read by openid-client', async () => {
    const person = await createSignInUser(t.app);
    const app = await registerClient(t.app, { scopes: ['openid', 'profile', 'email', 'read:startups'], redirectUris: ['https://rp.example/cb'] });
    const verifier = 'u'.repeat(64);
    const callback = await runAuthorization(
      new BrowserSession(t.url),
      authorizePath({
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: app.redirectUri,
        scope: 'openid email',
        code_challenge: s256Challenge(verifier),
        code_challenge_method: 'S256',
      }),
      person,
    );
    const issued = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(app.clientId, app.clientSecret!) },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: app.redirectUri, code_verifier: verifier }).toString(),
    });
    expect([issued.status, issued.body.scope]).toEqual([200, 'email openid']);
    const config = await openid.discovery(new URL(t.url), app.clientId, app.clientSecret, undefined, { algorithm: 'oauth2', execute: [openid.allowInsecureRequests] });
    expect(await openid.fetchUserInfo(config, issued.body.access_token, String(person.id))).toEqual({ sub: String(person.id), email: person.email, email_verified: true });
  });

  it('answers without a token 401 with the bare Bearer challenge, on GET and POST', async () => {
    expectBearerError(await get(), 401, 'invalid_token', 'Bearer realm="api"');
    expectBearerError(await post(), 401, 'invalid_token', 'Bearer realm="api"');
    // Another scheme is no Bearer credential either.
    expectBearerError(await get({ authorization: basicAuth('a', 'b') }), 401, 'invalid_token', 'Bearer realm="api"');
  });

  it('answers a malformed, unknown, expired or revoked token 401 invalid_token', async () => {
    const expired = await issueTestToken(t.app, { scopes: ['openid'], user, expiresInMs: -1000 });
    const revoked = await issueTestToken(t.app, { scopes: ['openid'], user, revoked: true });
    for (const authorization of ['Bearer', 'Bearer sp_at_unknown', 'Bearer not a token', `Bearer ${expired.token}`, `Bearer ${revoked.token}`]) {
      expectBearerError(await get({ authorization }), 401, 'invalid_token', 'Bearer realm="api", error="invalid_token"');
    }
    // The library reads the challenge as RFC 6750 says.
    const error = await oauth.processUserInfoResponse(as, rp, oauth.skipSubjectCheck, await oauth.userInfoRequest(as, rp, revoked.token, insecure)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect((error as oauth.WWWAuthenticateChallengeError).cause[0]).toMatchObject({ scheme: 'bearer', parameters: { realm: 'api', error: 'invalid_token' } });
  });

  it('answers a token without openid 403 insufficient_scope naming openid', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['profile', 'read:startups'], user });
    expectBearerError(await get(bearer(token)), 403, 'insufficient_scope', 'Bearer realm="api", error="insufficient_scope", scope="openid"');
    expectBearerError(await post(bearer(token)), 403, 'insufficient_scope', 'Bearer realm="api", error="insufficient_scope", scope="openid"');
  });

  it('answers a client_credentials token 403 insufficient_scope: it acts for no user and cannot hold openid', async () => {
    const service = await registerClient(t.app, { scopes: ['read:startups'] });
    const issued = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(service.clientId, service.clientSecret!) },
      body: 'grant_type=client_credentials',
    });
    expect(issued.status).toBe(200);
    const error = await oauth.processUserInfoResponse(as, rp, oauth.skipSubjectCheck, await oauth.userInfoRequest(as, rp, issued.body.access_token, insecure)).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, cause: [{ scheme: 'bearer', parameters: { error: 'insufficient_scope', scope: 'openid' } }] });
  });

  it('refuses a token sent as an access_token parameter with invalid_request, also beside a valid header', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['openid'], user });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const challenge = 'Bearer realm="api", error="invalid_request"';
    expectBearerError(await get({}, `?access_token=${token}`), 400, 'invalid_request', challenge);
    expectBearerError(await post(form, `access_token=${token}`), 400, 'invalid_request', challenge);
    expectBearerError(await post({ ...form, ...bearer(token) }, `access_token=${token}`), 400, 'invalid_request', challenge);
  });

  it('answers a token whose user was deleted 401 invalid_token', async () => {
    const gone = await createTestUser(t.app);
    const { token, tokenId } = await issueTestToken(t.app, { scopes: ['openid', 'profile'], user: gone });
    // Deleting a user cascades to their tokens; a row left behind must still stand for no one.
    const db = t.app.get(DataSource);
    await db.query(`UPDATE oauth_access_tokens SET user_id = NULL WHERE id = ${tokenId}`);
    expectBearerError(await get(bearer(token)), 401, 'invalid_token', 'Bearer realm="api", error="invalid_token"');
  });

  it('answers another method 405 in the same JSON shape, with Allow', async () => {
    const res = await http(t.url, USERINFO, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    expect(res.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  });

  it('counts calls against the token’s client rate limit', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['openid'], user });
    const res = await get(bearer(token));
    expect(res.headers.get('ratelimit-limit')).toBe('1200');
    expect(res.headers.get('ratelimit-remaining')).toBe('1199');
  });
});

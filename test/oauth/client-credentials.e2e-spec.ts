import * as oauth from 'oauth4webapi';
import { DataSource } from 'typeorm';
import { TokenPurgeService } from '../../src/purge/token-purge.service';
import { http, HttpResponse } from '../helpers/http';
import { apiResourceMetadata, basicAuth, OAuthTestClient, registerClient } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';
import { insertStartups } from '../helpers/startups';
import { bearer } from '../helpers/tokens';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * `grant_type=client_credentials` (RFC 6749 §4.4, docs/integrate-with-oauth.md), driven by oauth4webapi's
 * client-credentials functions where a library call fits, and over plain HTTP where the exact answer
 * (status, body, headers) is what is asserted.
 */
describe('grant_type=client_credentials (RFC 6749 §4.4)', () => {
  let t: TestApp;
  let as: oauth.AuthorizationServer;
  let service: OAuthTestClient;
  let narrow: OAuthTestClient;
  let userOnly: OAuthTestClient;
  let spa: OAuthTestClient;
  let db: DataSource;
  const insecure = { [oauth.allowInsecureRequests]: true } as const;

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(DataSource);
    service = await registerClient(t.app, { scopes: ['profile', 'read:startups'] });
    narrow = await registerClient(t.app, { scopes: ['read:startups'] });
    userOnly = await registerClient(t.app, { scopes: ['profile'] });
    spa = await registerClient(t.app, { type: 'public', scopes: ['read:startups'] });
    const issuer = new URL(t.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  });
  afterAll(() => t.close());

  const clientOf = (c: OAuthTestClient): oauth.Client => ({ client_id: c.clientId });
  const grant = (c: OAuthTestClient, parameters: Record<string, string> = {}) =>
    oauth.clientCredentialsGrantRequest(as, clientOf(c), oauth.ClientSecretBasic(c.clientSecret!), parameters, insecure);

  function token(form: Record<string, string>, headers: Record<string, string> = {}): Promise<HttpResponse> {
    return http(t.url, '/oauth/token', { method: 'POST', headers: { ...FORM, ...headers }, body: new URLSearchParams(form).toString() });
  }

  function expectOAuthError(res: HttpResponse, status: number, error: string, description?: RegExp) {
    expect({ status: res.status, body: res.body }).toEqual({ status, body: { error, error_description: expect.any(String) } });
    if (description) expect(res.body.error_description).toMatch(description);
    expect(res.headers.get('cache-control')).toBe('no-store');
  }

  async function introspect(c: OAuthTestClient, value: string): Promise<oauth.IntrospectionResponse> {
    return oauth.processIntrospectionResponse(as, clientOf(c), await oauth.introspectionRequest(as, clientOf(c), oauth.ClientSecretBasic(c.clientSecret!), value, insecure));
  }

  it('is advertised in the metadata', () => {
    expect(as.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']));
  });

  it('grants every registered scope that needs no user when no scope is asked for, without a refresh token', async () => {
    const response = await grant(service);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const tokens = await oauth.processClientCredentialsResponse(as, clientOf(service), response);
    expect(tokens).toEqual({ access_token: expect.stringMatching(/^sp_at_[A-Za-z0-9_-]{43}$/), token_type: 'bearer', expires_in: 3600, scope: 'read:startups' });
    expect(tokens.refresh_token).toBeUndefined();

    const [row] = await db.query('SELECT user_id, refresh_token_id FROM oauth_access_tokens ORDER BY id DESC LIMIT 1');
    expect(row).toEqual({ user_id: null, refresh_token_id: null });
    // No refresh token row was written for it either.
    expect(Number((await db.query(`SELECT COUNT(*) AS n FROM oauth_refresh_tokens WHERE client_id = ${service.id}`))[0].n)).toBe(0);
  });

  it('grants a requested scope within the registered ones, with client_secret_post as well', async () => {
    const response = await oauth.clientCredentialsGrantRequest(as, clientOf(narrow), oauth.ClientSecretPost(narrow.clientSecret!), { scope: 'read:startups' }, insecure);
    const tokens = await oauth.processClientCredentialsResponse(as, clientOf(narrow), response);
    expect(tokens.scope).toBe('read:startups');
  });

  it('takes offline_access, which discovery lists, and leaves it out of the scope granted (no refresh token)', async () => {
    const res = await token({ grant_type: 'client_credentials', scope: 'read:startups offline_access' }, { authorization: basicAuth(narrow.clientId, narrow.clientSecret!) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'read:startups' });
  });

  it.each([
    ['profile', /cannot hold profile/],
    ['read:startups profile', /cannot hold profile/],
    ['openid', /cannot hold openid/],
    ['email', /cannot hold email/],
    ['openid email profile', /cannot hold email, openid, profile/],
  ])('refuses the user scope(s) in %j with invalid_scope', async (scope, description) => {
    const res = await token({ grant_type: 'client_credentials', scope }, { authorization: basicAuth(service.clientId, service.clientSecret!) });
    expectOAuthError(res, 400, 'invalid_scope', description);
  });

  it('refuses a scope the client is not registered for, or an unknown one, with invalid_scope', async () => {
    // Through the library: its error carries the RFC 6749 §5.2 body.
    const error = await oauth.processClientCredentialsResponse(as, clientOf(userOnly), await grant(userOnly, { scope: 'read:startups' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(oauth.ResponseBodyError);
    expect(error).toMatchObject({ status: 400, error: 'invalid_scope' });
    for (const scope of ['admin', 'read:startups write:startups']) {
      const res = await token({ grant_type: 'client_credentials', scope }, { authorization: basicAuth(narrow.clientId, narrow.clientSecret!) });
      expectOAuthError(res, 400, 'invalid_scope', /exceeds the scopes registered/);
    }
  });

  it('refuses a client registered only for user scopes when it asks for the default', async () => {
    const res = await token({ grant_type: 'client_credentials' }, { authorization: basicAuth(userOnly.clientId, userOnly.clientSecret!) });
    expectOAuthError(res, 400, 'invalid_scope', /no registered scope/);
  });

  it('refuses a public client with unauthorized_client', async () => {
    const response = await oauth.clientCredentialsGrantRequest(as, clientOf(spa), oauth.None(), {}, insecure);
    const error = await oauth.processClientCredentialsResponse(as, clientOf(spa), response).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, error: 'unauthorized_client' });
    expectOAuthError(await token({ grant_type: 'client_credentials', client_id: spa.clientId }), 400, 'unauthorized_client', /confidential client/);
  });

  it('refuses a wrong secret with invalid_client and writes nothing', async () => {
    const before = Number((await db.query('SELECT COUNT(*) AS n FROM oauth_access_tokens'))[0].n);
    const res = await token({ grant_type: 'client_credentials' }, { authorization: basicAuth(service.clientId, 'sp_cs_wrong') });
    expectOAuthError(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
    expect(Number((await db.query('SELECT COUNT(*) AS n FROM oauth_access_tokens'))[0].n)).toBe(before);
  });

  describe('the token acts for the client alone', () => {
    let accessToken: string;

    beforeAll(async () => {
      accessToken = (await oauth.processClientCredentialsResponse(as, clientOf(service), await grant(service))).access_token;
    });

    it('reads startups with read:startups', async () => {
      const [id] = await insertStartups(t.app, [{ name: 'Kuzey Robotik', foundedYear: 2021, industryId: 1 }]);
      const res = await oauth.protectedResourceRequest(accessToken, 'GET', new URL(`${t.url}/api/public/v1/startups/${id}`), undefined, undefined, insecure);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ data: { id, name: 'Kuzey Robotik' } });
    });

    it('gets 403 INSUFFICIENT_SCOPE from /me, naming profile', async () => {
      const res = await http(t.url, '/api/public/v1/me', { headers: { ...bearer(accessToken), 'accept-language': 'en' } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
      expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="api", error="insufficient_scope", scope="profile", ${apiResourceMetadata(t.url)}`);
    });

    it('is introspected active without a sub, and revoked like any token', async () => {
      const active = await introspect(service, accessToken);
      expect(active).toEqual({ active: true, scope: 'read:startups', client_id: service.clientId, exp: expect.any(Number), iat: expect.any(Number), token_type: 'Bearer', aud: `${t.url}/api/public/v1` });
      expect(active.exp! - active.iat!).toBe(3600);

      await oauth.processRevocationResponse(await oauth.revocationRequest(as, clientOf(service), oauth.ClientSecretBasic(service.clientSecret!), accessToken, insecure));
      expect(await introspect(service, accessToken)).toEqual({ active: false });
      expect((await http(t.url, '/api/public/v1/startups', { headers: bearer(accessToken) })).status).toBe(401);
    });
  });

  it('is purged once expired, like any access token', async () => {
    const c = await registerClient(t.app, { scopes: ['read:startups'] });
    await oauth.processClientCredentialsResponse(as, clientOf(c), await grant(c));
    const count = async () => Number((await db.query(`SELECT COUNT(*) AS n FROM oauth_access_tokens WHERE client_id = ${c.id}`))[0].n);
    expect(await count()).toBe(1);
    await t.app.get(TokenPurgeService).purge(Date.now() + 3601_000);
    expect(await count()).toBe(0);
  });
});

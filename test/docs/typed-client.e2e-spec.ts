import { ApiError, AuthorizationError, createPkce, DpopKey, OAuthClient, OAuthError, StartupPlatformClient } from '../../client';
import { assertConformsToOpenApi } from '../helpers/openapi-conformance';
import { BrowserSession, createSignInUser, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { insertStartups, industryIds } from '../helpers/startups';
import { startTestApp, TestApp } from '../helpers/test-app';

/** `fetch` for the client under test, with every response checked against the reference like `http()` does. */
const checkedFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const text = await response.clone().text();
  assertConformsToOpenApi(init?.method ?? 'GET', String(input), response.status, response.headers, text);
  return response;
};

/** The typed client in client/ (used by the example): the flow, the calls, and its errors. */
describe('the typed client', () => {
  let t: TestApp;
  let user: OAuthTestUser;
  let registered: OAuthTestClient;
  let oauth: OAuthClient;

  beforeAll(async () => {
    t = await startTestApp();
    user = await createSignInUser(t.app);
    registered = await registerClient(t.app, { redirectUris: ['http://127.0.0.1:9/callback'] });
    oauth = new OAuthClient({ issuer: t.url, clientId: registered.clientId, clientSecret: registered.clientSecret, redirectUri: registered.redirectUri, fetch: checkedFetch });
    const ids = await industryIds(t.app);
    await insertStartups(t.app, [
      { name: 'Poyraz Pay', industryId: ids.Fintech, foundedYear: 2019 },
      { name: 'Anadolu Tarım', industryId: ids.Agritech, foundedYear: 2021 },
    ]);
  });
  afterAll(() => t.close());

  async function authorize(): Promise<{ code: string; verifier: string }> {
    const pkce = await createPkce();
    const url = new URL(oauth.authorizationUrl({ scope: 'profile read:startups', state: 'st', codeChallenge: pkce.challenge }));
    const callback = await runAuthorization(new BrowserSession(t.url), url.pathname + url.search, user);
    return { code: oauth.readCallback(callback, 'st'), verifier: pkce.verifier };
  }

  it('runs the code flow with PKCE, then calls the API with typed results', async () => {
    expect((await oauth.discover()).issuer).toBe(t.url);
    const { code, verifier } = await authorize();
    const tokens = await oauth.exchangeCode({ code, codeVerifier: verifier });
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'profile read:startups' });

    const api = new StartupPlatformClient({ baseUrl: t.url, accessToken: tokens.access_token, fetch: checkedFetch });
    expect((await api.me()).data).toEqual({ id: user.id, name: expect.any(String), email: user.email });
    const page = await api.listStartups({ limit: 1, sort: '-foundedYear' });
    expect(page.meta).toEqual({ total: 2, limit: 1, offset: 0 });
    expect(page.data[0]).toMatchObject({ name: 'Anadolu Tarım', industry: { name: 'Agritech' } });
    expect((await api.getStartup(page.data[0].id)).data.name).toBe('Anadolu Tarım');
    expect((await api.listIndustries()).data.length).toBeGreaterThan(0);

    // A second redemption of the code fails with the RFC error, and revokes what the first one issued.
    await expect(oauth.exchangeCode({ code, codeVerifier: verifier })).rejects.toMatchObject({ name: 'OAuthError', status: 400, error: 'invalid_grant' });
    await expect(api.me()).rejects.toMatchObject({ name: 'ApiError', status: 401, code: 'UNAUTHORIZED' });
  });

  it('binds the tokens to a DPoP key, sends them with a proof, and the bound token fails as Bearer', async () => {
    const dpop = await DpopKey.generate();
    const bound = new OAuthClient({ issuer: t.url, clientId: registered.clientId, clientSecret: registered.clientSecret, redirectUri: registered.redirectUri, dpop, fetch: checkedFetch });
    const { code, verifier } = await authorize();
    const tokens = await bound.exchangeCode({ code, codeVerifier: verifier });
    expect(tokens).toMatchObject({ token_type: 'DPoP', scope: 'profile read:startups' });
    expect(await oauth.introspect(tokens.access_token)).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt: expect.any(String) } });

    const api = new StartupPlatformClient({ baseUrl: t.url, accessToken: tokens.access_token, dpop, fetch: checkedFetch });
    expect((await api.me()).data.id).toBe(user.id);
    expect((await api.listStartups({ limit: 1 })).meta.total).toBe(2);
    const asBearer = new StartupPlatformClient({ baseUrl: t.url, accessToken: tokens.access_token, fetch: checkedFetch });
    const refused = await asBearer.me().catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'ApiError', status: 401, code: 'UNAUTHORIZED' });
    expect((refused as ApiError).headers.get('www-authenticate')).toMatch(/^DPoP /);
    // Another key's proofs do not carry the bound token either.
    const other = new StartupPlatformClient({ baseUrl: t.url, accessToken: tokens.access_token, dpop: await DpopKey.generate(), fetch: checkedFetch });
    await expect(other.me()).rejects.toMatchObject({ status: 401 });
  });

  it('refreshes, introspects and revokes', async () => {
    const { code, verifier } = await authorize();
    const first = await oauth.exchangeCode({ code, codeVerifier: verifier });
    const second = await oauth.refresh(first.refresh_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await oauth.introspect(second.access_token)).toMatchObject({ active: true, client_id: registered.clientId, sub: String(user.id) });
    await oauth.revoke(second.refresh_token, 'refresh_token');
    expect(await oauth.introspect(second.access_token)).toEqual({ active: false });
    const error = await oauth.refresh(second.refresh_token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
  });

  it('gets a token for the client itself with client_credentials, which reads startups but is no user', async () => {
    const tokens = await oauth.clientCredentials();
    expect(tokens).toEqual({ access_token: expect.stringMatching(/^sp_at_/), token_type: 'Bearer', expires_in: 3600, scope: 'read:startups' });
    const api = new StartupPlatformClient({ baseUrl: t.url, accessToken: tokens.access_token, language: 'en', fetch: checkedFetch });
    expect((await api.listStartups({ limit: 1 })).meta.total).toBe(2);
    await expect(api.me()).rejects.toMatchObject({ name: 'ApiError', status: 403, code: 'INSUFFICIENT_SCOPE' });
    await expect(oauth.clientCredentials('profile')).rejects.toMatchObject({ name: 'OAuthError', status: 400, error: 'invalid_scope' });
  });

  it('throws the envelope of a failed API call as an ApiError with its code, message and request id', async () => {
    const api = new StartupPlatformClient({ baseUrl: t.url, accessToken: 'sp_at_not-a-token', language: 'en', fetch: checkedFetch });
    const error = (await api.listStartups().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: '401 UNAUTHORIZED: A valid session is required.' });
    expect(error.requestId).toBe(error.headers.get('x-request-id'));

    const anonymous = new StartupPlatformClient({ baseUrl: t.url, language: 'en', fetch: checkedFetch });
    const missing = (await anonymous.get('/api/public/v1/industries/{id}', { params: { id: 2_000_000 } }).catch((e: unknown) => e)) as ApiError;
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('refuses a callback with another state or issuer, and reports a denial', () => {
    const base = registered.redirectUri;
    expect(() => oauth.readCallback(`${base}?code=c&state=other&iss=${encodeURIComponent(t.url)}`, 'st')).toThrow(/state/);
    expect(() => oauth.readCallback(`${base}?code=c&state=st&iss=${encodeURIComponent('https://evil.example')}`, 'st')).toThrow(/issuer/);
    expect(() => oauth.readCallback(`${base}?error=access_denied&state=st&iss=${encodeURIComponent(t.url)}`, 'st')).toThrow(AuthorizationError);
    expect(oauth.readCallback(`${base}?code=c&state=st&iss=${encodeURIComponent(t.url)}`, 'st')).toBe('c');
  });

  it('is typed from the reference: unknown paths, parameters and values do not compile', () => {
    const api = new StartupPlatformClient({ baseUrl: t.url });
    // Never called: these lines exist for the type-check that `npm test` runs first.
    const _typeChecks = () => [
      // @ts-expect-error: not a documented path
      api.get('/api/public/v1/no-such-collection'),
      // @ts-expect-error: not a documented sort
      api.listStartups({ sort: 'city' }),
      // @ts-expect-error: {id} needs its path parameter
      api.get('/api/public/v1/startups/{id}'),
      // @ts-expect-error: limit is a number
      api.listStartups({ limit: '5' }),
    ];
    expect(typeof _typeChecks).toBe('function');
  });
});

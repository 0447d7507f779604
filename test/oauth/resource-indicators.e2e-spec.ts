import * as oauth from 'oauth4webapi';
import { Clock } from '../../src/common/clock';
import { http } from '../helpers/http';
import { BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * RFC 9728 and RFC 8707 as an agent meets them, with an off-the-shelf client library (oauth4webapi): a
 * 401 of the public API leads to its protected-resource metadata and on to the issuer; a token is asked
 * for one resource (the public API or /mcp) and is honoured by that one alone (SECURITY.md, "Token replay
 * across resources"); a resource that is not the platform's, or not the grant's, is `invalid_target`.
 */
describe('resource indicators and protected-resource metadata', () => {
  let t: TestApp;
  let as: oauth.AuthorizationServer;
  let user: OAuthTestUser;
  let registered: OAuthTestClient;
  let client: oauth.Client;
  let clientAuth: oauth.ClientAuth;
  let api: string;
  let mcp: string;
  const insecure = { [oauth.allowInsecureRequests]: true } as const;
  const FOREIGN = 'https://elsewhere.example/api/public/v1';

  beforeAll(async () => {
    t = await startTestApp();
    api = `${t.url}/api/public/v1`;
    mcp = `${t.url}/mcp`;
    user = await createSignInUser(t.app);
    const issuer = new URL(t.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    registered = await registerClient(t.app, { type: 'confidential', scopes: ['openid', 'profile', 'read:startups'], deviceFlow: true });
    client = { client_id: registered.clientId };
    clientAuth = oauth.ClientSecretBasic(registered.clientSecret!);
  });
  afterAll(() => t.close());

  const me = (token: string) => http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${token}` } });

  /** The authorization request's query, `extra` added (a `resource`, say). */
  function authorizeUrl(extra: Record<string, string> = {}, verifier = oauth.generateRandomCodeVerifier(), state = 'st-1') {
    return (async () => {
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: registered.clientId,
        redirect_uri: registered.redirectUri,
        scope: 'profile read:startups',
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        ...extra,
      }).toString();
      return url.toString();
    })();
  }

  /** A code flow with `resource` at authorization (if given) and `tokenResource` at the token endpoint. */
  async function codeFlow(resource?: string, tokenResource?: string): Promise<oauth.TokenEndpointResponse> {
    const verifier = oauth.generateRandomCodeVerifier();
    const callback = await runAuthorization(new BrowserSession(t.url), await authorizeUrl(resource ? { resource } : {}, verifier), user);
    const params = oauth.validateAuthResponse(as, client, callback, 'st-1');
    const additionalParameters = tokenResource ? { resource: tokenResource } : undefined;
    const res = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, registered.redirectUri, verifier, { ...insecure, additionalParameters });
    return oauth.processAuthorizationCodeResponse(as, client, res);
  }

  /** The RFC 6749 §5.2 error of a refused token-endpoint request, from the library. */
  async function refusal(request: Promise<unknown>): Promise<string> {
    try {
      await request;
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError) return error.error;
      throw error;
    }
    throw new Error('expected a refusal');
  }

  async function introspectAud(token: string): Promise<unknown> {
    const res = await oauth.introspectionRequest(as, client, clientAuth, token, insecure);
    return (await oauth.processIntrospectionResponse(as, client, res)).aud;
  }

  it('leads a client from a bare 401 of the API to its metadata, and from there to the issuer', async () => {
    const bare = await http(t.url, '/api/public/v1/me');
    expect(bare.status).toBe(401);
    const metadataUrl = `${t.url}/.well-known/oauth-protected-resource/api/public/v1`;
    expect(bare.headers.get('www-authenticate')).toBe(`Bearer realm="api", resource_metadata="${metadataUrl}"`);
    // The envelope is the API's, as before.
    expect(bare.body.error.code).toBe('UNAUTHORIZED');

    // The library reads the same challenge from an invalid token's 401.
    const challenge = await oauth
      .protectedResourceRequest('sp_at_unknown', 'GET', new URL(`${api}/me`), undefined, undefined, insecure)
      .then(() => null, (error: unknown) => (error as oauth.WWWAuthenticateChallengeError).cause[0]);
    expect(challenge).toMatchObject({ scheme: 'bearer', parameters: { error: 'invalid_token', resource_metadata: metadataUrl } });

    // RFC 9728 §3: the library finds the document from the resource identifier, and checks its `resource`.
    const discovered = await oauth.resourceDiscoveryRequest(new URL(api), insecure);
    expect(discovered.url).toBe(metadataUrl);
    const resource = await oauth.processResourceDiscoveryResponse(new URL(api), discovered);
    expect(resource).toEqual({
      resource: api,
      authorization_servers: [t.url],
      scopes_supported: ['profile', 'read:startups'],
      bearer_methods_supported: ['header'],
      resource_name: 'Startup Platform public API',
      resource_documentation: `${t.url}/docs`,
      dpop_bound_access_tokens_required: false,
    });
    const issuer = new URL(resource.authorization_servers![0]);
    const server = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    expect(server.token_endpoint).toBe(`${t.url}/oauth/token`);

    const mcpMetadata = await oauth.processResourceDiscoveryResponse(new URL(mcp), await oauth.resourceDiscoveryRequest(new URL(mcp), insecure));
    expect(mcpMetadata).toMatchObject({ resource: mcp, authorization_servers: [t.url], resource_name: 'Startup Platform MCP endpoint' });
  });

  it('names the scopes a call needs, and the metadata, in a 403 (RFC 6750 §3.1)', async () => {
    const narrow = await registerClient(t.app, { scopes: ['read:startups'] });
    const res = await oauth.clientCredentialsGrantRequest(as, { client_id: narrow.clientId }, oauth.ClientSecretBasic(narrow.clientSecret!), {}, insecure);
    const token = (await oauth.processClientCredentialsResponse(as, { client_id: narrow.clientId }, res)).access_token;
    const forbidden = await me(token);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('www-authenticate')).toBe(
      `Bearer realm="api", error="insufficient_scope", scope="profile", resource_metadata="${t.url}/.well-known/oauth-protected-resource/api/public/v1"`,
    );
    expect(forbidden.body.error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('binds a token asked for /mcp to /mcp: the API refuses it, and takes one asked for the API', async () => {
    const forMcp = await codeFlow(mcp);
    const refused = await me(forMcp.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer realm="api", error="invalid_token", resource_metadata="${t.url}/.well-known/oauth-protected-resource/api/public/v1"`);
    expect(await introspectAud(forMcp.access_token)).toBe(mcp);
    // Its refresh keeps the grant's resource.
    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, forMcp.refresh_token!, insecure));
    expect((await me(refreshed.access_token)).status).toBe(401);
    expect(await introspectAud(refreshed.access_token)).toBe(mcp);

    // A trailing slash and the default port spelled out name the same resource.
    const port80 = new URL(api);
    const spelled = port80.port === '' ? `${port80.protocol}//${port80.hostname}:80${port80.pathname}/` : `${api}/`;
    const forApi = await codeFlow(spelled);
    expect((await me(forApi.access_token)).status).toBe(200);
    expect(await introspectAud(forApi.access_token)).toBe(api);
  });

  it('lets UserInfo, the authorization server\'s own endpoint, take a token of either audience that holds openid (docs/agents.md)', async () => {
    for (const resource of [mcp, api]) {
      const verifier = oauth.generateRandomCodeVerifier();
      const callback = await runAuthorization(new BrowserSession(t.url), await authorizeUrl({ resource, scope: 'openid profile' }, verifier), user);
      const params = oauth.validateAuthResponse(as, client, callback, 'st-1');
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, registered.redirectUri, verifier, insecure));
      expect(await introspectAud(tokens.access_token)).toBe(resource);
      const info = await http(t.url, '/oauth/userinfo', { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect([resource, info.status, info.body.sub]).toEqual([resource, 200, String(user.id)]);
    }
  });

  it('keeps today\'s behaviour without resource: a token for the public API', async () => {
    const tokens = await codeFlow();
    expect((await me(tokens.access_token)).status).toBe(200);
    expect(await introspectAud(tokens.access_token)).toBe(api);
    expect(await introspectAud(tokens.refresh_token!)).toBe(api);
  });

  it('refuses a resource that is not the platform\'s at the authorization endpoint, by redirect', async () => {
    for (const resource of [FOREIGN, `${mcp}#fragment`, '/mcp', `${api}?x=1`]) {
      const res = await new BrowserSession(t.url).get(await authorizeUrl({ resource }));
      expect(res.status).toBe(302);
      const back = new URL(res.location!);
      expect([back.origin + back.pathname, back.searchParams.get('error'), back.searchParams.get('state'), back.searchParams.get('iss')]).toEqual([
        'http://127.0.0.1:9/callback',
        'invalid_target',
        'st-1',
        t.url,
      ]);
    }
  });

  it('refuses a foreign resource at the pushed-request and device endpoints', async () => {
    const pushed = await oauth.pushedAuthorizationRequest(
      as,
      client,
      clientAuth,
      { response_type: 'code', redirect_uri: registered.redirectUri, scope: 'profile', resource: FOREIGN, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' },
      insecure,
    );
    expect(await refusal(oauth.processPushedAuthorizationResponse(as, client, pushed))).toBe('invalid_target');

    const device = await oauth.deviceAuthorizationRequest(as, client, clientAuth, { scope: 'profile', resource: FOREIGN }, insecure);
    expect(await refusal(oauth.processDeviceAuthorizationResponse(as, client, device))).toBe('invalid_target');
    // A resource of the platform is accepted there.
    const accepted = await oauth.deviceAuthorizationRequest(as, client, clientAuth, { scope: 'profile', resource: mcp }, insecure);
    expect((await oauth.processDeviceAuthorizationResponse(as, client, accepted)).device_code).toMatch(/^sp_dc_/);
  });

  it('refuses at the token endpoint a resource that is not the grant\'s, and the code still works after', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const callback = await runAuthorization(new BrowserSession(t.url), await authorizeUrl({ resource: api }, verifier), user);
    const params = oauth.validateAuthResponse(as, client, callback, 'st-1');
    const redeem = (resource?: string) =>
      oauth
        .authorizationCodeGrantRequest(as, client, clientAuth, params, registered.redirectUri, verifier, { ...insecure, additionalParameters: resource ? { resource } : undefined })
        .then((res) => oauth.processAuthorizationCodeResponse(as, client, res));
    expect(await refusal(redeem(mcp))).toBe('invalid_target');
    expect(await refusal(redeem(FOREIGN))).toBe('invalid_target');
    // Nothing was used up: the code is redeemed for the grant's own resource.
    const tokens = await redeem(api);
    expect((await me(tokens.access_token)).status).toBe(200);

    // client_credentials: the client asks for itself, for either resource, never a foreign one.
    const cc = (resource: string) =>
      oauth.clientCredentialsGrantRequest(as, client, clientAuth, { scope: 'read:startups', resource }, insecure).then((res) => oauth.processClientCredentialsResponse(as, client, res));
    expect(await refusal(cc(FOREIGN))).toBe('invalid_target');
    const ccMcp = await cc(mcp);
    expect(await introspectAud(ccMcp.access_token)).toBe(mcp);
    expect((await http(t.url, '/api/public/v1/industries', { headers: { authorization: `Bearer ${ccMcp.access_token}` } })).status).toBe(200);
    const startups = await http(t.url, '/api/public/v1/startups', { headers: { authorization: `Bearer ${ccMcp.access_token}` } });
    expect([startups.status, startups.headers.get('www-authenticate')]).toEqual([401, expect.stringContaining('error="invalid_token"')]);
    expect((await http(t.url, '/api/public/v1/startups', { headers: { authorization: `Bearer ${(await cc(api)).access_token}` } })).status).toBe(200);
  });

  it('binds a DPoP-bound token to its resource too: the API refuses one asked for /mcp', async () => {
    const keyPair = await oauth.generateKeyPair('ES256');
    const DPoP = oauth.DPoP(client, keyPair);
    const boundFor = async (resource: string) => {
      const request = () => oauth.clientCredentialsGrantRequest(as, client, clientAuth, { scope: 'read:startups', resource }, { ...insecure, DPoP });
      let res = await request();
      // RFC 9449 §8: the first request learns the server's nonce, if it sends one.
      if (res.status === 400 && oauth.isDPoPNonceError(await res.clone().json().catch(() => null))) res = await request();
      return (await oauth.processClientCredentialsResponse(as, client, res)).access_token;
    };
    const startups = new URL(`${api}/startups`);
    const call = (token: string) =>
      oauth.protectedResourceRequest(token, 'GET', startups, undefined, undefined, { ...insecure, DPoP }).then(
        (res) => res.status,
        (error: unknown) => (error as oauth.WWWAuthenticateChallengeError).cause[0].parameters.error,
      );
    expect(await call(await boundFor(mcp))).toBe('invalid_token');
    expect(await call(await boundFor(api))).toBe(200);
  });

  it('refuses a refresh that names another resource than its grant\'s, and rotates nothing', async () => {
    const tokens = await codeFlow(api);
    const refresh = (resource: string) =>
      oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, { ...insecure, additionalParameters: { resource } }).then((res) => oauth.processRefreshTokenResponse(as, client, res));
    expect(await refusal(refresh(mcp))).toBe('invalid_target');
    expect(await refusal(refresh(FOREIGN))).toBe('invalid_target');
    // The refresh token was not rotated by the refusals: it still refreshes, for its own resource.
    const refreshed = await refresh(`${api}/`);
    expect((await me(refreshed.access_token)).status).toBe(200);
  });

  it('carries the device authorization\'s resource to the token, and refuses another at the poll', async () => {
    const res = await oauth.deviceAuthorizationRequest(as, client, clientAuth, { scope: 'profile', resource: mcp }, insecure);
    const started = await oauth.processDeviceAuthorizationResponse(as, client, res);
    const browser = new BrowserSession(t.url);
    let page = await browser.get(`/device?user_code=${encodeURIComponent(started.user_code)}`);
    page = await browser.post('/device', { ...hiddenInputs(page.text), user_code: started.user_code });
    page = await browser.get(page.location!);
    if (page.status === 303) {
      page = await browser.get(page.location!);
      page = await browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: user.email, password: user.password });
      page = await browser.get(page.location!);
    }
    const decided = await browser.post('/device/consent', { ...hiddenInputs(page.text), decision: 'approve' });
    expect(decided.status).toBe(200);

    // Each poll counts (RFC 8628 §3.5): the clock moves past the interval between them.
    let offset = 0;
    const clock = jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => Date.now() + offset);
    const poll = (resource?: string) =>
      oauth
        .deviceCodeGrantRequest(as, client, clientAuth, started.device_code, { ...insecure, additionalParameters: resource ? { resource } : undefined })
        .then((r) => oauth.processDeviceCodeResponse(as, client, r));
    expect(await refusal(poll(api))).toBe('invalid_target');
    offset += 10_000;
    const tokens = await poll();
    clock.mockRestore();
    expect(await introspectAud(tokens.access_token)).toBe(mcp);
    expect((await me(tokens.access_token)).status).toBe(401);
  });

  it('lists in discovery what agents look for, and no member this server does not implement', () => {
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    // offline_access is listed (refresh tokens are issued to public clients too), and accepted below.
    expect(as.scopes_supported).toContain('offline_access');
    expect(as).not.toHaveProperty('resource_parameter_supported');
  });

  it('takes offline_access, as agents ask for it when discovery lists it: a refresh token, the scope granted without it', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const url = await authorizeUrl({ scope: 'profile read:startups offline_access', resource: mcp }, verifier);
    const callback = await runAuthorization(new BrowserSession(t.url), url, user);
    const params = oauth.validateAuthResponse(as, client, callback, 'st-1');
    const res = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, registered.redirectUri, verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, res);
    expect([tokens.scope, typeof tokens.refresh_token]).toEqual(['profile read:startups', 'string']);
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, { ...insecure, additionalParameters: { scope: 'profile offline_access' } }),
    );
    expect(refreshed.scope).toBe('profile');
  });
});

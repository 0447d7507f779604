import * as oauth from 'oauth4webapi';
import { Client } from '../../src/clients/client.entity';
import { ClientsService } from '../../src/clients/clients.service';
import { IntrospectionService } from '../../src/oauth/introspection/introspection.service';
import { http } from '../helpers/http';
import { BrowserSession, createSignInUser, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * The whole code flow driven by an independent, certified OAuth client library (oauth4webapi), for
 * each client authentication method: discovery, authorization (the browser part over HTTP with a
 * cookie jar), code exchange, refresh with rotation, introspection and revocation.
 */
describe('an off-the-shelf OAuth client against the authorization server', () => {
  let t: TestApp;
  let as: oauth.AuthorizationServer;
  let user: OAuthTestUser;
  const insecure = { [oauth.allowInsecureRequests]: true } as const;

  beforeAll(async () => {
    t = await startTestApp();
    user = await createSignInUser(t.app);
    const issuer = new URL(t.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  });
  afterAll(() => t.close());

  it('publishes RFC 8414 metadata with every field of the contract', async () => {
    expect(as).toEqual(
      expect.objectContaining({
        issuer: t.url,
        authorization_endpoint: `${t.url}/oauth/authorize`,
        token_endpoint: `${t.url}/oauth/token`,
        revocation_endpoint: `${t.url}/oauth/revoke`,
        introspection_endpoint: `${t.url}/oauth/introspect`,
        scopes_supported: ['openid', 'profile', 'email', 'read:startups', 'offline_access'],
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'],
        device_authorization_endpoint: `${t.url}/oauth/device_authorization`,
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        // RFC 7662 §2.1: introspection for authenticated clients only.
        introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        authorization_response_iss_parameter_supported: true,
        service_documentation: `${t.url}/docs`,
      }),
    );
    const res = await http(t.url, '/.well-known/oauth-authorization-server', { headers: { origin: 'https://elsewhere.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  const methods: Array<{ name: string; type: 'confidential' | 'public'; auth: (c: OAuthTestClient) => oauth.ClientAuth }> = [
    { name: 'client_secret_basic', type: 'confidential', auth: (c) => oauth.ClientSecretBasic(c.clientSecret!) },
    { name: 'client_secret_post', type: 'confidential', auth: (c) => oauth.ClientSecretPost(c.clientSecret!) },
    { name: 'none (public client with PKCE)', type: 'public', auth: () => oauth.None() },
  ];

  describe.each(methods)('with $name', ({ type, auth }) => {
    let registered: OAuthTestClient;
    let client: oauth.Client;
    let clientAuth: oauth.ClientAuth;

    beforeAll(async () => {
      registered = await registerClient(t.app, { type, redirectUris: ['http://127.0.0.1:9/callback?from=test'] });
      client = { client_id: registered.clientId };
      clientAuth = auth(registered);
    });

    /**
     * What introspection says of one of this client's tokens. A public client is refused the endpoint
     * (RFC 7662 §2.1: 401 invalid_client), so for one the suite checks that, then asks the service itself.
     */
    async function introspect(token: string, hint?: string): Promise<oauth.IntrospectionResponse> {
      const additionalParameters = hint ? { token_type_hint: hint } : undefined;
      const res = await oauth.introspectionRequest(as, client, clientAuth, token, { ...insecure, additionalParameters });
      if (type !== 'public') return oauth.processIntrospectionResponse(as, client, res);
      expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([401, 'invalid_client']);
      const row = await t.app.get(ClientsService).findByClientId(registered.clientId);
      return (await t.app.get(IntrospectionService).introspect({ token, ...additionalParameters }, { ...row!, type: 'confidential' } as Client)) as oauth.IntrospectionResponse;
    }

    it('runs authorization, code exchange, refresh, introspection and revocation', async () => {
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const authorizationUrl = new URL(as.authorization_endpoint!);
      authorizationUrl.search = new URLSearchParams({
        response_type: 'code',
        client_id: registered.clientId,
        redirect_uri: registered.redirectUri,
        scope: 'profile read:startups',
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }).toString();

      const browser = new BrowserSession(t.url);
      const callback = await runAuthorization(browser, authorizationUrl.toString(), user);
      expect(callback.origin + callback.pathname).toBe('http://127.0.0.1:9/callback');
      expect(callback.searchParams.get('from')).toBe('test');

      const params = oauth.validateAuthResponse(as, client, callback, state);
      const tokenResponse = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, registered.redirectUri, verifier, insecure);
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, tokenResponse);
      expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'profile read:startups' });
      expect(tokens.access_token).toMatch(/^sp_at_[A-Za-z0-9_-]{43}$/);
      expect(tokens.refresh_token).toMatch(/^sp_rt_[A-Za-z0-9_-]{43}$/);
      expect(tokenResponse.headers.get('cache-control')).toBe('no-store');
      expect(tokenResponse.headers.get('pragma')).toBe('no-cache');

      const introspected = await introspect(tokens.access_token);
      expect(introspected).toMatchObject({
        active: true,
        scope: 'profile read:startups',
        client_id: registered.clientId,
        sub: String(user.id),
        token_type: 'Bearer',
      });
      expect(introspected.exp! - introspected.iat!).toBe(3600);

      // The public API accepts the token as a Bearer credential (RFC 6750).
      const me = await oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL(`${t.url}/api/public/v1/me`), undefined, undefined, insecure);
      expect(me.status).toBe(200);
      expect(((await me.json()) as { data: { id: number; email: string } }).data).toMatchObject({ id: user.id, email: user.email });

      // Refresh with a narrower scope: a new pair, the old refresh token retired.
      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, { ...insecure, additionalParameters: { scope: 'profile' } }),
      );
      expect(refreshed.scope).toBe('profile');
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      const oldRefresh = await introspect(tokens.refresh_token!, 'refresh_token');
      expect(oldRefresh).toEqual({ active: false });
      const newRefresh = await introspect(refreshed.refresh_token!);
      // RFC 6749 §6: the refresh token keeps the scope of the grant.
      expect(newRefresh).toMatchObject({ active: true, scope: 'profile read:startups', token_type: 'refresh_token' });

      // Revoking the refresh token ends the whole grant, access tokens included.
      await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, insecure));
      for (const token of [refreshed.access_token, tokens.access_token, refreshed.refresh_token!]) {
        const result = await introspect(token);
        expect(result).toEqual({ active: false });
      }
      const afterRevocation = await http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${refreshed.access_token}` } });
      expect(afterRevocation.status).toBe(401);
    });

    it('revokes a single access token and answers 200 for an unknown one', async () => {
      const browser = new BrowserSession(t.url);
      const verifier = oauth.generateRandomCodeVerifier();
      const url = `${as.authorization_endpoint}?${new URLSearchParams({
        response_type: 'code',
        client_id: registered.clientId,
        redirect_uri: registered.redirectUri,
        scope: 'profile',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      })}`;
      const callback = await runAuthorization(browser, url, user);
      const params = oauth.validateAuthResponse(as, client, callback, oauth.expectNoState);
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, registered.redirectUri, verifier, insecure),
      );
      await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, tokens.access_token, insecure));
      await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, 'sp_at_unknown', insecure));
      const access = await introspect(tokens.access_token);
      expect(access).toEqual({ active: false });
      // Only the access token went: the refresh token still works.
      const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure));
      expect(refreshed.access_token).toMatch(/^sp_at_/);
    });
  });
});

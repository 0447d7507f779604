import fc from 'fast-check';
import * as oauth from 'oauth4webapi';
import { DataSource } from 'typeorm';
import { Client } from '../../src/clients/client.entity';
import { ClientsService } from '../../src/clients/clients.service';
import { Clock } from '../../src/common/clock';
import { IntrospectionService } from '../../src/oauth/introspection/introspection.service';
import { dpopKey, DpopKey, dpopProof } from '../helpers/dpop';
import { http, HttpResponse } from '../helpers/http';
import { apiResourceMetadata, BrowserSession, createSignInUser, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * DPoP (RFC 9449) driven by oauth4webapi, unchanged: tokens bound to the client's key at the token
 * endpoint, used at the API and UserInfo with a proof per request; and every way a proof can be wrong
 * (docs/integrate-with-oauth.md "Bind tokens to a key with DPoP", SECURITY.md "Token theft", "DPoP
 * proof replay").
 */
describe('DPoP-bound tokens (RFC 9449)', () => {
  let t: TestApp;
  let as: oauth.AuthorizationServer;
  let user: OAuthTestUser;
  let publicClient: OAuthTestClient;
  const insecure = { [oauth.allowInsecureRequests]: true } as const;
  const ME = () => `${t.url}/api/public/v1/me`;

  beforeAll(async () => {
    // Hostile proofs by the hundred: the limits (charged as usual) must not be what answers them.
    t = await startTestApp({ RATE_LIMIT_ANONYMOUS: '100000', RATE_LIMIT_CLIENT: '100000' });
    user = await createSignInUser(t.app);
    publicClient = await registerClient(t.app, {
      type: 'public',
      scopes: ['openid', 'profile', 'read:startups'],
    });
    const issuer = new URL(t.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  /** The code flow of a public client through oauth4webapi, with DPoP when a key pair is given. */
  async function codeFlow(keyPair?: oauth.CryptoKeyPair, client: OAuthTestClient = publicClient) {
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      scope: 'openid profile read:startups',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();
    const callback = await runAuthorization(new BrowserSession(t.url), url.toString(), user);
    const c: oauth.Client = { client_id: client.clientId };
    const params = oauth.validateAuthResponse(as, c, callback);
    const DPoP = keyPair ? oauth.DPoP(c, keyPair) : undefined;
    const response = await oauth.authorizationCodeGrantRequest(as, c, oauth.None(), params, client.redirectUri, verifier, { ...insecure, DPoP });
    return oauth.processAuthorizationCodeResponse(as, c, response, {
      expectedNonce: oauth.expectNoNonce,
      requireIdToken: true,
    });
  }

  /**
   * What introspection says of a token of `client`. A public client may not call the endpoint (RFC 7662
   * §2.1), so for one the suite asks the service directly, as if the client had authenticated.
   */
  async function introspect(token: string, client: OAuthTestClient = publicClient) {
    const c = { client_id: client.clientId };
    if (client.clientSecret) return oauth.processIntrospectionResponse(as, c, await oauth.introspectionRequest(as, c, oauth.ClientSecretBasic(client.clientSecret), token, insecure));
    const row = await t.app.get(ClientsService).findByClientId(client.clientId);
    return (await t.app.get(IntrospectionService).introspect({ token }, { ...row!, type: 'confidential' } as Client)) as oauth.IntrospectionResponse;
  }

  function get(path: string, headers: Record<string, string>): Promise<HttpResponse> {
    return http(t.url, path, { headers });
  }

  it('lists the proof algorithms in discovery', () => {
    expect(as.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'RS256']));
  });

  describe.each(['ES256', 'RS256'] as const)('with an %s key', (alg) => {
    it('binds the tokens, calls the API and UserInfo with proofs, and refreshes only with the same key', async () => {
      const keyPair = await oauth.generateKeyPair(alg);
      const DPoP = oauth.DPoP({ client_id: publicClient.clientId } as oauth.Client, keyPair);
      const tokens = await codeFlow(keyPair);
      expect(tokens.token_type).toBe('dpop');
      const jkt = (await dpopKeyOf(keyPair)).jkt;

      // RFC 9449 §6.2: introspection states the binding.
      expect(await introspect(tokens.access_token)).toMatchObject({
        active: true,
        token_type: 'DPoP',
        cnf: { jkt },
      });
      expect(await introspect(tokens.refresh_token!)).toMatchObject({
        active: true,
        token_type: 'refresh_token',
        cnf: { jkt },
      });

      const me = await oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL(ME()), undefined, undefined, { ...insecure, DPoP });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { data: { id: number } }).data.id).toBe(user.id);

      // Sent as Bearer, the bound token is refused with the DPoP challenge; the body stays the envelope.
      const asBearer = await get('/api/public/v1/me', {
        authorization: `Bearer ${tokens.access_token}`,
      });
      expect(asBearer.status).toBe(401);
      // RFC 9728 §5.1: a DPoP challenge names the resource's metadata, as the Bearer ones do.
      expect(asBearer.headers.get('www-authenticate')).toBe(`DPoP realm="api", error="invalid_token", algs="ES256 RS256 PS256 EdDSA", ${apiResourceMetadata(t.url)}`);
      expect(asBearer.body).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
      const userInfoAsBearer = await get('/oauth/userinfo', {
        authorization: `Bearer ${tokens.access_token}`,
      });
      expect([userInfoAsBearer.status, userInfoAsBearer.headers.get('www-authenticate')]).toEqual([
        401,
        expect.stringMatching(/^DPoP .*error="invalid_token"/),
      ]);

      // A public client's refresh token is bound: without a proof, or with another key, nothing happens.
      const c: oauth.Client = { client_id: publicClient.clientId };
      const noProof = await oauth.refreshTokenGrantRequest(as, c, oauth.None(), tokens.refresh_token!, insecure);
      expect([noProof.status, ((await noProof.json()) as { error: string }).error]).toEqual([400, 'invalid_dpop_proof']);
      const otherKey = oauth.DPoP(c, await oauth.generateKeyPair('ES256'));
      const stolen = await oauth.refreshTokenGrantRequest(as, c, oauth.None(), tokens.refresh_token!, { ...insecure, DPoP: otherKey });
      expect([stolen.status, ((await stolen.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
      expect(await introspect(tokens.refresh_token!)).toMatchObject({
        active: true,
      });

      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        c,
        await oauth.refreshTokenGrantRequest(as, c, oauth.None(), tokens.refresh_token!, { ...insecure, DPoP }),
      );
      expect(refreshed.token_type).toBe('dpop');
      expect(await introspect(refreshed.access_token)).toMatchObject({
        active: true,
        cnf: { jkt },
      });
      expect(await introspect(refreshed.refresh_token!)).toMatchObject({
        active: true,
        cnf: { jkt },
      });

      const info = await oauth.processUserInfoResponse(
        as,
        c,
        oauth.skipSubjectCheck,
        await oauth.userInfoRequest(as, c, refreshed.access_token, {
          ...insecure,
          DPoP,
        }),
      );
      expect(info.sub).toBe(String(user.id));
    });
  });

  it('binds a public client\'s refresh token at the first refresh with a proof, when the grant began without DPoP (RFC 9449 §5)', async () => {
    const tokens = await codeFlow();
    expect(tokens.token_type).toBe('bearer');
    const c: oauth.Client = { client_id: publicClient.clientId };
    const keyPair = await oauth.generateKeyPair('ES256');
    const DPoP = oauth.DPoP(c, keyPair);
    const bound = await oauth.processRefreshTokenResponse(as, c, await oauth.refreshTokenGrantRequest(as, c, oauth.None(), tokens.refresh_token!, { ...insecure, DPoP }));
    expect(bound.token_type).toBe('dpop');

    // From now on the refresh token is as a bound one: no proof, or another key, is refused and changes nothing.
    const noProof = await oauth.refreshTokenGrantRequest(as, c, oauth.None(), bound.refresh_token!, insecure);
    expect([noProof.status, ((await noProof.json()) as { error: string }).error]).toEqual([400, 'invalid_dpop_proof']);
    const stolen = await oauth.refreshTokenGrantRequest(as, c, oauth.None(), bound.refresh_token!, { ...insecure, DPoP: oauth.DPoP(c, await oauth.generateKeyPair('ES256')) });
    expect([stolen.status, ((await stolen.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    const again = await oauth.processRefreshTokenResponse(as, c, await oauth.refreshTokenGrantRequest(as, c, oauth.None(), bound.refresh_token!, { ...insecure, DPoP }));
    expect(again.token_type).toBe('dpop');
    const stillBound = await oauth.refreshTokenGrantRequest(as, c, oauth.None(), again.refresh_token!, insecure);
    expect(stillBound.status).toBe(400);
  });

  it('keeps Bearer tokens working as before, and refuses an unbound token under the DPoP scheme', async () => {
    const tokens = await codeFlow();
    expect(tokens.token_type).toBe('bearer');
    expect((await introspect(tokens.access_token)).cnf).toBeUndefined();
    expect(
      (
        await get('/api/public/v1/me', {
          authorization: `Bearer ${tokens.access_token}`,
        })
      ).status,
    ).toBe(200);
    const key = await dpopKey();
    const res = await get('/api/public/v1/me', {
      authorization: `DPoP ${tokens.access_token}`,
      dpop: await dpopProof(key, {
        htm: 'GET',
        htu: ME(),
        accessToken: tokens.access_token,
      }),
    });
    expect([res.status, res.headers.get('www-authenticate')]).toEqual([401, expect.stringMatching(/^DPoP .*error="invalid_token"/)]);
  });

  describe('a proof that does not fit the request', () => {
    let key: DpopKey;
    let token: string;

    beforeAll(async () => {
      key = await dpopKey('ES256');
      token = (await codeFlow({ privateKey: key.privateKey, publicKey: key.publicKey })).access_token;
    });

    async function callMe(proof: string | undefined, authorization = `DPoP ${token}`): Promise<HttpResponse> {
      return get('/api/public/v1/me', {
        authorization,
        ...(proof === undefined ? {} : { dpop: proof }),
      });
    }

    function expectProofRefused(res: HttpResponse): void {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(`DPoP realm="api", error="invalid_dpop_proof", algs="ES256 RS256 PS256 EdDSA", ${apiResourceMetadata(t.url)}`);
      expect(res.body).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    }

    it('is accepted when everything matches (the baseline of the cases below)', async () => {
      expect((await callMe(await dpopProof(key, { htm: 'GET', htu: ME(), accessToken: token }))).status).toBe(200);
    });

    it.each([
      ['missing', async () => undefined],
      [
        'for another URL',
        async () =>
          dpopProof(key, {
            htm: 'GET',
            htu: `${t.url}/api/public/v1/startups`,
            accessToken: token,
          }),
      ],
      ['for another method', async () => dpopProof(key, { htm: 'POST', htu: ME(), accessToken: token })],
      ['for another access token (ath)', async () => dpopProof(key, { htm: 'GET', htu: ME(), accessToken: `${token}x` })],
      ['without ath', async () => dpopProof(key, { htm: 'GET', htu: ME() })],
      [
        'signed by another key',
        async () =>
          dpopProof(await dpopKey('ES256'), {
            htm: 'GET',
            htu: ME(),
            accessToken: token,
          }),
      ],
    ])('refuses a proof %s with the invalid_dpop_proof challenge', async (_name, make) => {
      expectProofRefused(await callMe(await make()));
    });

    it('accepts the URI with a query (htu leaves it out, RFC 9449 §4.3) and refuses a stale iat by the server clock', async () => {
      const withQuery = await get('/api/public/v1/me?x=1', {
        authorization: `DPoP ${token}`,
        dpop: await dpopProof(key, {
          htm: 'GET',
          htu: ME(),
          accessToken: token,
        }),
      });
      // The public API refuses unknown query fields, after authentication.
      expect(withQuery.status).not.toBe(401);

      const proof = await dpopProof(key, {
        htm: 'GET',
        htu: ME(),
        accessToken: token,
      });
      // The server's clock moves 61 s on: the same fresh proof is now too old; then 61 s back: from the future.
      const clock = jest.spyOn(t.app.get(Clock), 'now');
      clock.mockReturnValue(Date.now() + 61_000);
      expectProofRefused(await callMe(proof));
      clock.mockReturnValue(Date.now() - 61_000);
      expectProofRefused(await callMe(proof));
      clock.mockRestore();
      expect((await callMe(proof)).status).toBe(200);
    });

    it('refuses a replayed proof (same jti), at the API and at UserInfo', async () => {
      const proof = await dpopProof(key, {
        htm: 'GET',
        htu: ME(),
        accessToken: token,
      });
      expect((await callMe(proof)).status).toBe(200);
      expectProofRefused(await callMe(proof));

      const userInfo = `${t.url}/oauth/userinfo`;
      const once = await dpopProof(key, {
        htm: 'GET',
        htu: userInfo,
        accessToken: token,
      });
      expect(
        (
          await get('/oauth/userinfo', {
            authorization: `DPoP ${token}`,
            dpop: once,
          })
        ).status,
      ).toBe(200);
      const again = await get('/oauth/userinfo', {
        authorization: `DPoP ${token}`,
        dpop: once,
      });
      expect([again.status, again.body]).toEqual([401, expect.objectContaining({ error: 'invalid_dpop_proof' })]);
      expect(again.headers.get('www-authenticate')).toMatch(/^DPoP .*error="invalid_dpop_proof"/);
    });

    it('refuses a bad proof at the token endpoint with invalid_dpop_proof, leaving the code redeemable', async () => {
      const verifier = oauth.generateRandomCodeVerifier();
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: publicClient.clientId,
        redirect_uri: publicClient.redirectUri,
        scope: 'profile',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }).toString();
      const code = new URL(await runAuthorization(new BrowserSession(t.url), url.toString(), user)).searchParams.get('code')!;
      const form = {
        grant_type: 'authorization_code',
        code,
        redirect_uri: publicClient.redirectUri,
        code_verifier: verifier,
        client_id: publicClient.clientId,
      };
      const bad = await tokenRequest(form, await dpopProof(key, { htm: 'POST', htu: `${t.url}/oauth/other` }));
      expect([bad.status, bad.body]).toEqual([400, expect.objectContaining({ error: 'invalid_dpop_proof' })]);
      const good = await tokenRequest(form, await dpopProof(key, { htm: 'POST', htu: `${t.url}/oauth/token` }));
      expect([good.status, good.body]).toEqual([200, expect.objectContaining({ token_type: 'DPoP' })]);
    });

    it('answers hostile proofs with a clear 401 (API) or 400 (token endpoint), never a 5xx, and changes nothing', async () => {
      const db = t.app.get(DataSource);
      const rowsBefore = await db.query('SELECT COUNT(*) AS n FROM dpop_proofs');
      const other = await dpopKey('RS256');
      const privateJwk = { ...key.publicJwk, d: 'AAAA' };
      const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
      const hostile = fc.oneof(
        fc.string({ maxLength: 300 }),
        fc.string({ minLength: 9000, maxLength: 12000 }),
        fc.tuple(fc.json(), fc.json(), fc.base64String()).map(([h, p, s]) => `${b64(h)}.${b64(p)}.${s.replace(/=/g, '')}`),
        fc
          .constantFrom('HS256', 'none', 'ES512', 'RS1', '')
          .map(
            (alg) =>
              `${b64({ alg, typ: 'dpop+jwt', jwk: key.publicJwk })}.${b64({ jti: 'x', htm: 'GET', htu: ME(), iat: Math.floor(Date.now() / 1000) })}.AAAA`,
          ),
        fc
          .string({ maxLength: 20 })
          .chain((typ) => fc.constant(typ).map((value) => ({ typ: value })))
          .map(({ typ }) => `${b64({ alg: 'ES256', typ, jwk: key.publicJwk })}.${b64({})}.AAAA`),
        fc
          .constant(null)
          .map(
            () =>
              `${b64({ alg: 'ES256', typ: 'dpop+jwt', jwk: privateJwk })}.${b64({ jti: 'x', htm: 'GET', htu: ME(), iat: Math.floor(Date.now() / 1000) })}.AAAA`,
          ),
        fc
          .record({ htm: fc.string({ maxLength: 10 }), htu: fc.webUrl() })
          .map(({ htm, htu }) => ({ htm, htu }))
          .map((claims) => claims),
        fc.constant('proof-a, proof-b'),
      );
      await fc.assert(
        fc.asyncProperty(hostile, async (input) => {
          const proof =
            typeof input === 'string'
              ? input
              : await dpopProof(Math.random() < 0.5 ? key : other, {
                  htm: input.htm,
                  htu: input.htu,
                  accessToken: token,
                });
          const api = await http(t.url, '/api/public/v1/me', {
            headers: { authorization: `DPoP ${token}`, dpop: proof },
          });
          expect(api.status).toBe(401);
          expect(api.headers.get('www-authenticate')).toMatch(/^DPoP realm="api", error="(invalid_dpop_proof|invalid_token)"/);
          const token400 = await tokenRequest(
            {
              grant_type: 'refresh_token',
              refresh_token: 'sp_rt_unknown',
              client_id: publicClient.clientId,
            },
            proof,
          );
          expect(token400.status).toBeLessThan(500);
          expect(token400.body).toEqual(
            expect.objectContaining({
              error: expect.stringMatching(/^(invalid_dpop_proof|invalid_request|invalid_grant)$/),
            }),
          );
        }),
        { numRuns: 60 },
      );
      expect(await db.query('SELECT COUNT(*) AS n FROM dpop_proofs')).toEqual(rowsBefore);
      expect(await introspect(token)).toMatchObject({ active: true });
      expect((await callMe(await dpopProof(key, { htm: 'GET', htu: ME(), accessToken: token }))).status).toBe(200);
    });
  });

  it('binds client_credentials tokens too (any grant that issues an access token)', async () => {
    const confidential = await registerClient(t.app, {
      type: 'confidential',
      scopes: ['read:startups'],
    });
    const key = await dpopKey('ES256');
    const res = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${confidential.clientId}:${confidential.clientSecret}`).toString('base64')}`,
        dpop: await dpopProof(key, {
          htm: 'POST',
          htu: `${t.url}/oauth/token`,
        }),
      },
      body: 'grant_type=client_credentials',
    });
    expect([res.status, res.body]).toEqual([200, expect.objectContaining({ token_type: 'DPoP' })]);
    const token = (res.body as { access_token: string }).access_token;
    const startups = await get('/api/public/v1/startups', {
      authorization: `DPoP ${token}`,
      dpop: await dpopProof(key, {
        htm: 'GET',
        htu: `${t.url}/api/public/v1/startups`,
        accessToken: token,
      }),
    });
    expect(startups.status).toBe(200);
  });

  function tokenRequest(form: Record<string, string>, proof: string): Promise<HttpResponse> {
    return http(t.url, '/oauth/token', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        dpop: proof,
      },
      body: new URLSearchParams(form).toString(),
    });
  }
});

async function dpopKeyOf(keyPair: oauth.CryptoKeyPair): Promise<{ jkt: string }> {
  const { calculateJwkThumbprint, exportJWK } = await import('jose');
  return {
    jkt: await calculateJwkThumbprint(await exportJWK(keyPair.publicKey), 'sha256'),
  };
}

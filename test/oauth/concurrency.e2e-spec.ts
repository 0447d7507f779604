import { Client } from '../../src/clients/client.entity';
import { ClientsService } from '../../src/clients/clients.service';
import { s256Challenge } from '../../src/oauth/pkce';
import { TokenService } from '../../src/oauth/token/token.service';
import { http, HttpResponse } from '../helpers/http';
import { authorizePath, basicAuth, BrowserSession, createSignInUser, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

const VERIFIER = 'c'.repeat(64);
const PARALLEL = 12;

/**
 * Single use under concurrency (docs/integrate-with-oauth.md): two server instances share one database, and requests
 * that race on one code or one refresh token are spread over both. The conditional UPDATE decides.
 */
describe('concurrent use of one code or one refresh token, across two instances', () => {
  let a: TestApp;
  let b: TestApp;
  let user: OAuthTestUser;
  let client: OAuthTestClient;
  let browser: BrowserSession;

  beforeAll(async () => {
    a = await startTestApp();
    const shared = Object.fromEntries(
      Object.entries(a.env).filter(([name]) => ['SQLITE_PATH', 'DATABASE_URL', 'DATABASE_SCHEMA', 'REDIS_URL', 'REDIS_KEY_PREFIX'].includes(name)),
    );
    b = await startTestApp(shared);
    user = await createSignInUser(a.app);
    client = await registerClient(a.app, { redirectUris: ['https://app.example/cb'] });
    browser = new BrowserSession(a.url);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const auth = () => ({ 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(client.clientId, client.clientSecret!) });
  const instance = (i: number) => (i % 2 === 0 ? a : b).url;

  async function newCode(): Promise<string> {
    const url = authorizePath({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      scope: 'profile',
      code_challenge: s256Challenge(VERIFIER),
      code_challenge_method: 'S256',
    });
    return (await runAuthorization(browser, url, user)).searchParams.get('code')!;
  }

  function redeem(base: string, code: string): Promise<HttpResponse> {
    const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: VERIFIER });
    return http(base, '/oauth/token', { method: 'POST', headers: auth(), body: body.toString() });
  }

  function refresh(base: string, refreshToken: string): Promise<HttpResponse> {
    return http(base, '/oauth/token', { method: 'POST', headers: auth(), body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString() });
  }

  async function active(token: string): Promise<boolean> {
    const res = await http(a.url, '/oauth/introspect', { method: 'POST', headers: auth(), body: new URLSearchParams({ token }).toString() });
    return res.body.active;
  }

  it('shares one database between the two instances', async () => {
    const res = await redeem(b.url, await newCode());
    expect(res.status).toBe(200);
  });

  it.each([1, 2, 3])(`lets exactly one of ${PARALLEL} parallel redemptions of a code succeed (round %i)`, async () => {
    const code = await newCode();
    const results = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => redeem(instance(i), code)));
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) {
      expect(loser.status).toBe(400);
      expect(loser.body.error).toBe('invalid_grant');
    }
    // Every loser presented a used code: what the winner received is revoked (RFC 6749 §4.1.2).
    expect(await active(winners[0].body.access_token)).toBe(false);
  });

  it.each([1, 2, 3])(`lets at most one of ${PARALLEL} parallel refreshes of a refresh token succeed (round %i)`, async () => {
    const tokens = (await redeem(a.url, await newCode())).body;
    const results = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => refresh(instance(i), tokens.refresh_token)));
    const winners = results.filter((r) => r.status === 200);
    expect(winners.length).toBeLessThanOrEqual(1);
    for (const loser of results.filter((r) => r.status !== 200)) expect([loser.status, loser.body.error]).toEqual([400, 'invalid_grant']);
    // The retired token came back: the family is revoked, the winner's pair included (RFC 9700 §4.14.2).
    for (const winner of winners) {
      expect(await active(winner.body.access_token)).toBe(false);
      expect(await active(winner.body.refresh_token)).toBe(false);
    }
    expect(await active(tokens.access_token)).toBe(false);
  });

  describe('inside one process, with the calls interleaved at every await', () => {
    // Over HTTP one process tends to finish a request before it reads the next; started in the same
    // tick, these calls all pass the first look-up before any of them writes.
    let registered: Client;
    beforeAll(async () => {
      registered = (await a.app.get(ClientsService).findByClientId(client.clientId))!;
    });

    async function settle(calls: Array<Promise<unknown>>) {
      const results = await Promise.allSettled(calls);
      const errors = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as { error?: string }).error);
      return { successes: results.filter((r) => r.status === 'fulfilled').length, errors };
    }

    it('redeems a code once', async () => {
      const code = await newCode();
      const tokens = a.app.get(TokenService);
      const form = { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: VERIFIER };
      const { successes, errors } = await settle(Array.from({ length: PARALLEL }, () => tokens.grant(form, registered)));
      expect(successes).toBe(1);
      expect(errors).toEqual(Array(PARALLEL - 1).fill('invalid_grant'));
    });

    // 30: the one statement that checks and rotates a live token (TokensRepository.rotateLive) under the
    // load of a client refreshing from thirty places at once.
    it.each([PARALLEL, 30])('rotates a refresh token once among %i concurrent refreshes', async (parallel) => {
      const issued = (await redeem(a.url, await newCode())).body;
      const tokens = a.app.get(TokenService);
      const { successes, errors } = await settle(
        Array.from({ length: parallel }, () => tokens.grant({ grant_type: 'refresh_token', refresh_token: issued.refresh_token }, registered)),
      );
      expect(successes).toBeLessThanOrEqual(1);
      expect(errors).toEqual(Array(parallel - successes).fill('invalid_grant'));
    });
  });
});

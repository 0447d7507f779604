import { createHash } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { DataSource } from 'typeorm';
import { Client } from '../../src/clients/client.entity';
import { ClientsService } from '../../src/clients/clients.service';
import { s256Challenge } from '../../src/oauth/pkce';
import { TokenService } from '../../src/oauth/token/token.service';
import { me, Provisioned, REDIRECT_URI, refresh as flowRefresh, tokens } from '../helpers/flows';
import { http, HttpResponse } from '../helpers/http';
import { authorizePath, basicAuth, BrowserSession, createSignInUser, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { queryStorage } from '../helpers/storage-query';
import { startTestApp, TestApp } from '../helpers/test-app';

const VERIFIER = 'g'.repeat(64);
const GRACE_SECONDS = 30;
const PARALLEL = 8;
const SHARED = ['SQLITE_PATH', 'DATABASE_URL', 'DATABASE_SCHEMA', 'REDIS_URL', 'REDIS_KEY_PREFIX'];

type Pair = { access_token: string; refresh_token: string };

/**
 * REFRESH_TOKEN_GRACE_PERIOD (docs/integrate-with-oauth.md): two instances on one database, both with the grace period
 * on, and a third with it off (today's strict rotation) on the same database.
 */
describe('REFRESH_TOKEN_GRACE_PERIOD: the most recently rotated refresh token may come back for a while', () => {
  let a: TestApp;
  let b: TestApp;
  let strict: TestApp;
  let user: OAuthTestUser;
  let client: OAuthTestClient;
  let other: OAuthTestClient;
  let browser: BrowserSession;
  let db: DataSource;

  beforeAll(async () => {
    a = await startTestApp({ REFRESH_TOKEN_GRACE_PERIOD: String(GRACE_SECONDS) });
    const shared = Object.fromEntries(Object.entries(a.env).filter(([name]) => SHARED.includes(name)));
    b = await startTestApp({ ...shared, REFRESH_TOKEN_GRACE_PERIOD: String(GRACE_SECONDS) });
    strict = await startTestApp(shared);
    db = a.app.get(DataSource);
    user = await createSignInUser(a.app);
    client = await registerClient(a.app, { redirectUris: ['https://app.example/cb'] });
    other = await registerClient(a.app, { redirectUris: ['https://other.example/cb'] });
    browser = new BrowserSession(a.url);
  });
  afterAll(async () => {
    await strict?.close();
    await b?.close();
    await a?.close();
  });

  const auth = (c = client) => ({ 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(c.clientId, c.clientSecret!) });
  const instance = (i: number) => (i % 2 === 0 ? a : b).url;

  function refresh(base: string, refreshToken: string, c = client): Promise<HttpResponse> {
    return http(base, '/oauth/token', { method: 'POST', headers: auth(c), body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString() });
  }

  async function pair(): Promise<Pair> {
    const url = authorizePath({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      scope: 'profile read:startups',
      code_challenge: s256Challenge(VERIFIER),
      code_challenge_method: 'S256',
    });
    const code = (await runAuthorization(browser, url, user)).searchParams.get('code')!;
    const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: VERIFIER });
    const res = await http(a.url, '/oauth/token', { method: 'POST', headers: auth(), body: body.toString() });
    expect(res.status).toBe(200);
    return res.body;
  }

  async function ok(res: Promise<HttpResponse>): Promise<Pair> {
    const answer = await res;
    expect([answer.status, answer.text]).toEqual([200, expect.any(String)]);
    return answer.body;
  }

  async function active(token: string): Promise<boolean> {
    const res = await http(a.url, '/oauth/introspect', { method: 'POST', headers: auth(), body: new URLSearchParams({ token }).toString() });
    return res.body.active;
  }

  function expectReplayRefused(res: HttpResponse) {
    expect([res.status, res.body]).toEqual([400, { error: 'invalid_grant', error_description: 'The refresh token has already been used; its grant has been revoked.' }]);
  }

  /** Refresh tokens of the family that a client could still use: neither rotated nor revoked. */
  async function liveRefreshTokens(familyId: string): Promise<number> {
    const [row] = await queryStorage<{ n: number | string }>(
      a.env,
      `SELECT COUNT(*) AS n FROM oauth_refresh_tokens WHERE family_id = '${familyId}' AND revoked_at IS NULL AND rotated_at IS NULL`,
    );
    return Number(row.n);
  }

  async function familyOf(token: string): Promise<string> {
    const [row] = await db.query(`SELECT family_id FROM oauth_refresh_tokens WHERE token_hash = '${createHash('sha256').update(token).digest('hex')}'`);
    return row.family_id;
  }

  /** Moves the rotation of every rotated token of the family `seconds` into the past. */
  async function ageRotation(familyId: string, seconds: number) {
    await db.query(`UPDATE oauth_refresh_tokens SET rotated_at = rotated_at - ${seconds * 1000} WHERE family_id = '${familyId}' AND rotated_at IS NOT NULL`);
  }

  it('lets two concurrent refreshes with one token, on two instances, both succeed, and leaves one live refresh token', async () => {
    const first = await pair();
    const family = await familyOf(first.refresh_token);
    const [x, y] = await Promise.all([ok(refresh(a.url, first.refresh_token)), ok(refresh(b.url, first.refresh_token))]);
    expect(x.refresh_token).not.toBe(y.refresh_token);
    expect(await familyOf(x.refresh_token)).toBe(family);
    expect(await familyOf(y.refresh_token)).toBe(family);
    // The later use replaced the earlier one's pair: exactly one of the two pairs lives, and it rotates on.
    expect(await liveRefreshTokens(family)).toBe(1);
    const states = [await active(x.refresh_token), await active(y.refresh_token)];
    expect(states.filter(Boolean)).toHaveLength(1);
    const [kept, replaced] = states[0] ? [x, y] : [y, x];
    expect(await active(kept.access_token)).toBe(true);
    expect(await active(replaced.access_token)).toBe(false);
    await ok(refresh(a.url, kept.refresh_token));
    expect(await liveRefreshTokens(family)).toBe(1);
    expect(await active(first.refresh_token)).toBe(false);
  });

  it(`lets ${PARALLEL} parallel refreshes with one token, spread over both instances, all succeed, and leaves one live refresh token`, async () => {
    const first = await pair();
    const results = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => refresh(instance(i), first.refresh_token)));
    expect(results.map((r) => r.status)).toEqual(Array(PARALLEL).fill(200));
    expect(new Set(results.map((r) => r.body.refresh_token)).size).toBe(PARALLEL);
    expect(await liveRefreshTokens(await familyOf(first.refresh_token))).toBe(1);
    const live = [];
    for (const r of results) if (await active(r.body.access_token)) live.push(r);
    expect(live).toHaveLength(1);
    expect(await active(live[0].body.refresh_token)).toBe(true);
  });

  it('answers a retry of the latest rotated token with a new pair each time (a lost answer), each replacing the one before', async () => {
    const first = await pair();
    const family = await familyOf(first.refresh_token);
    const lost = await ok(refresh(a.url, first.refresh_token));
    const retry = await ok(refresh(b.url, first.refresh_token));
    expect(await liveRefreshTokens(family)).toBe(1);
    const again = await ok(refresh(a.url, first.refresh_token));
    expect(await liveRefreshTokens(family)).toBe(1);
    expect(new Set([lost.refresh_token, retry.refresh_token, again.refresh_token]).size).toBe(3);
    for (const token of [lost.refresh_token, lost.access_token, retry.refresh_token, retry.access_token]) expect(await active(token)).toBe(false);
    expect(await active(again.refresh_token)).toBe(true);
    expect(await active(again.access_token)).toBe(true);
  });

  it('revokes the family when a token two generations old comes back, within the window', async () => {
    const first = await pair();
    const second = await ok(refresh(a.url, first.refresh_token));
    const third = await ok(refresh(b.url, second.refresh_token));
    expectReplayRefused(await refresh(a.url, first.refresh_token));
    for (const token of [second.access_token, third.access_token, third.refresh_token]) expect(await active(token)).toBe(false);
    expect((await refresh(a.url, third.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('leaves no live token in the family when a replay races retries of the latest token, across instances', async () => {
    for (let round = 0; round < 5; round++) {
      const zeroth = await pair();
      const first = await ok(refresh(a.url, zeroth.refresh_token));
      await ok(refresh(a.url, first.refresh_token));
      const retries = Array.from({ length: PARALLEL }, (_, i) => refresh(instance(i), first.refresh_token));
      const replay = refresh(instance(PARALLEL / 2 + 1), zeroth.refresh_token);
      await Promise.all([...retries, replay]);
      expectReplayRefused(await replay);
      const family = await familyOf(zeroth.refresh_token);
      const [live] = await db.query(
        `SELECT (SELECT COUNT(*) FROM oauth_refresh_tokens WHERE family_id = '${family}' AND revoked_at IS NULL) + (SELECT COUNT(*) FROM oauth_access_tokens WHERE family_id = '${family}' AND revoked_at IS NULL) AS n`,
      );
      expect(Number(live.n)).toBe(0);
    }
  });

  it('revokes the family when the latest rotated token comes back after the window', async () => {
    const first = await pair();
    const second = await ok(refresh(a.url, first.refresh_token));
    await ageRotation(await familyOf(first.refresh_token), GRACE_SECONDS + 1);
    expectReplayRefused(await refresh(b.url, first.refresh_token));
    expect(await active(second.refresh_token)).toBe(false);
    expect(await active(second.access_token)).toBe(false);
  });

  it('still honours the window just before it ends', async () => {
    const first = await pair();
    await ok(refresh(a.url, first.refresh_token));
    await ageRotation(await familyOf(first.refresh_token), GRACE_SECONDS - 2);
    await ok(refresh(b.url, first.refresh_token));
  });

  it('refuses the token to another client without touching the family', async () => {
    const first = await pair();
    const second = await ok(refresh(a.url, first.refresh_token));
    const res = await refresh(a.url, first.refresh_token, other);
    expect([res.status, res.body.error_description]).toEqual([400, 'The refresh token is invalid.']);
    expect(await active(second.refresh_token)).toBe(true);
    await ok(refresh(a.url, first.refresh_token));
  });

  it('refuses a revoked family even within the window', async () => {
    const first = await pair();
    const second = await ok(refresh(a.url, first.refresh_token));
    await http(a.url, '/oauth/revoke', { method: 'POST', headers: auth(), body: new URLSearchParams({ token: second.refresh_token }).toString() });
    const res = await refresh(b.url, first.refresh_token);
    expect([res.status, res.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('keeps today’s strict rotation on an instance with the setting at 0, on the same database', async () => {
    const first = await pair();
    const second = await ok(refresh(strict.url, first.refresh_token));
    expectReplayRefused(await refresh(strict.url, first.refresh_token));
    expect(await active(second.refresh_token)).toBe(false);

    const concurrent = await pair();
    const results = await Promise.all(Array.from({ length: 4 }, () => refresh(strict.url, concurrent.refresh_token)));
    const winners = results.filter((r) => r.status === 200);
    expect(winners.length).toBeLessThanOrEqual(1);
    for (const winner of winners) expect(await active(winner.body.refresh_token)).toBe(false);
  });

  describe('inside one process, with the calls interleaved at every await', () => {
    let registered: Client;
    beforeAll(async () => {
      registered = (await a.app.get(ClientsService).findByClientId(client.clientId))!;
    });

    it('lets every one of the interleaved refreshes of one token succeed, leaving one live refresh token', async () => {
      const first = await pair();
      const tokens = a.app.get(TokenService);
      const results = await Promise.allSettled(
        Array.from({ length: PARALLEL }, () => tokens.grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, registered)),
      );
      expect(results.map((r) => r.status)).toEqual(Array(PARALLEL).fill('fulfilled'));
      expect(await liveRefreshTokens(await familyOf(first.refresh_token))).toBe(1);
    });

    it('decides a retry of the parent racing the rotation of its child as one order or the other, and the family ends', async () => {
      const first = await pair();
      const second = await ok(refresh(a.url, first.refresh_token));
      const tokens = a.app.get(TokenService);
      const [child, parent] = await Promise.allSettled([
        tokens.grant({ grant_type: 'refresh_token', refresh_token: second.refresh_token }, registered),
        tokens.grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, registered),
      ]);
      // Child first: the parent is no longer the latest rotated token, so it is a replay and the family
      // goes. Parent first: its new pair replaced the child, which then comes back revoked, and the family
      // goes. Either way exactly one of the two is refused and no token of the family lives on.
      expect([child.status, parent.status].filter((status) => status === 'rejected')).toHaveLength(1);
      const refused = (child.status === 'rejected' ? child : parent) as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ error: 'invalid_grant', description: 'The refresh token has already been used; its grant has been revoked.' });
      expect(await liveRefreshTokens(await familyOf(first.refresh_token))).toBe(0);
    });

    describe('a thief replaying the latest rotated token inside the window (the clock is the grant\'s `now`)', () => {
      const use = (token: string, at: number) => a.app.get(TokenService).grant({ grant_type: 'refresh_token', refresh_token: token }, registered, {}, at);
      const refusal = (promise: Promise<unknown>) => promise.then(() => 'granted', (error: { error: string; description: string }) => [error.error, error.description]);
      const REPLAYED = ['invalid_grant', 'The refresh token has already been used; its grant has been revoked.'];

      it('gets a chain that the next legitimate refresh ends: the family goes, the thief\'s pair too', async () => {
        const rt1 = await pair();
        // After the pair was issued, however long that took: every later use is after its issue.
        const t0 = Date.now();
        const family = await familyOf(rt1.refresh_token);
        expect(await liveRefreshTokens(family)).toBe(1);
        // The legitimate client refreshes: RT1 → RT2.
        const rt2 = await use(rt1.refresh_token, t0 + 1_000);
        expect(await liveRefreshTokens(family)).toBe(1);
        // The thief replays RT1 inside the window: a new pair RT3 that replaces RT2 and its access token.
        const rt3 = await use(rt1.refresh_token, t0 + 1_000 + (GRACE_SECONDS - 1) * 1_000);
        expect(await liveRefreshTokens(family)).toBe(1);
        expect(await active(rt2.refresh_token!)).toBe(false);
        expect(await active(rt2.access_token)).toBe(false);
        expect(await active(rt3.refresh_token!)).toBe(true);
        // The legitimate client, its API calls now refused, refreshes with RT2: a replaced token came
        // back, so the family is revoked, the thief's RT3 and its access token with it.
        expect(await refusal(use(rt2.refresh_token!, t0 + GRACE_SECONDS * 1_000))).toEqual(REPLAYED);
        expect(await liveRefreshTokens(family)).toBe(0);
        for (const token of [rt3.refresh_token!, rt3.access_token]) expect(await active(token)).toBe(false);
        expect(await refusal(use(rt3.refresh_token!, t0 + GRACE_SECONDS * 1_000 + 1))).toEqual(['invalid_grant', 'The refresh token has been revoked.']);
      });

      it('gets a chain that the next use of the same token ends: the thief\'s pair is replaced in turn', async () => {
        const rt1 = await pair();
        // After the pair was issued, however long that took: every later use is after its issue.
        const t0 = Date.now();
        const family = await familyOf(rt1.refresh_token);
        await use(rt1.refresh_token, t0 + 1_000);
        const thief = await use(rt1.refresh_token, t0 + 2_000);
        // The legitimate client retries RT1 (its answer was lost): its pair replaces the thief's.
        const retry = await use(rt1.refresh_token, t0 + 3_000);
        expect(await liveRefreshTokens(family)).toBe(1);
        expect(await active(thief.refresh_token!)).toBe(false);
        expect(await active(thief.access_token)).toBe(false);
        expect(await active(retry.refresh_token!)).toBe(true);
        // The thief's next refresh presents a replaced token: the family goes.
        expect(await refusal(use(thief.refresh_token!, t0 + 4_000))).toEqual(REPLAYED);
        expect(await liveRefreshTokens(family)).toBe(0);
      });

      it('is a replay once the window has passed, by one millisecond, and revokes the family', async () => {
        const rt1 = await pair();
        // After the pair was issued, however long that took: every later use is after its issue.
        const t0 = Date.now();
        const family = await familyOf(rt1.refresh_token);
        const rt2 = await use(rt1.refresh_token, t0 + 1_000);
        // Exactly at the end of the window the retry still counts.
        await use(rt1.refresh_token, t0 + 1_000 + GRACE_SECONDS * 1_000);
        expect(await active(rt2.refresh_token!)).toBe(false);
        expect(await refusal(use(rt1.refresh_token, t0 + 1_000 + GRACE_SECONDS * 1_000 + 1))).toEqual(REPLAYED);
        expect(await liveRefreshTokens(family)).toBe(0);
      });

      it('is a replay for any older token of the family, even inside the window', async () => {
        const rt1 = await pair();
        // After the pair was issued, however long that took: every later use is after its issue.
        const t0 = Date.now();
        const family = await familyOf(rt1.refresh_token);
        const rt2 = await use(rt1.refresh_token, t0 + 1_000);
        await use(rt2.refresh_token!, t0 + 2_000);
        expect(await refusal(use(rt1.refresh_token, t0 + 3_000))).toEqual(REPLAYED);
        expect(await liveRefreshTokens(family)).toBe(0);
      });
    });
  });

  it('works for an off-the-shelf client library retrying with the same token', async () => {
    const issuer = new URL(a.url);
    const insecure = { [oauth.allowInsecureRequests]: true } as const;
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const c: oauth.Client = { client_id: client.clientId };
    const clientAuth = oauth.ClientSecretBasic(client.clientSecret!);
    const first = await pair();
    const [x, y] = await Promise.all([
      oauth.refreshTokenGrantRequest(as, c, clientAuth, first.refresh_token, insecure).then((r) => oauth.processRefreshTokenResponse(as, c, r)),
      oauth.refreshTokenGrantRequest(as, c, clientAuth, first.refresh_token, insecure).then((r) => oauth.processRefreshTokenResponse(as, c, r)),
    ]);
    expect(x.refresh_token).toMatch(/^sp_rt_/);
    expect(y.refresh_token).toMatch(/^sp_rt_/);
    expect(x.refresh_token).not.toBe(y.refresh_token);
  });
});

describe('REFRESH_TOKEN_GRACE_PERIOD with TOKEN_CACHE_TTL_MS: the pair a grace-period use replaces is refused at once', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('refuses the access token of the replaced pair at once, though this instance had cached it', async () => {
    t = await startTestApp({ REFRESH_TOKEN_GRACE_PERIOD: String(GRACE_SECONDS), TOKEN_CACHE_TTL_MS: '60000' });
    const owner = await createSignInUser(t.app);
    const registered = await registerClient(t.app, { redirectUris: [REDIRECT_URI] });
    const p: Provisioned = { user: owner, client: { clientId: registered.clientId, clientSecret: registered.clientSecret!, redirectUri: REDIRECT_URI } };
    const first = await tokens(t.url, p);
    const second = (await flowRefresh(t.url, p, first.refresh_token)).body as Pair;
    // Cached by this instance on its first use.
    expect((await me(t.url, second.access_token)).status).toBe(200);
    // The first refresh token again within the grace period (a retry after a lost answer): a new pair replaces the second.
    const third = await flowRefresh(t.url, p, first.refresh_token);
    expect(third.status).toBe(200);
    expect((await me(t.url, second.access_token)).status).toBe(401);
    expect((await me(t.url, third.body.access_token)).status).toBe(200);
  });
});

import { createHash } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { DataSource } from 'typeorm';
import { Client } from '../../src/clients/client.entity';
import { ClientsService } from '../../src/clients/clients.service';
import { s256Challenge } from '../../src/oauth/pkce';
import { TokenService } from '../../src/oauth/token/token.service';
import { http, HttpResponse } from '../helpers/http';
import { authorizePath, basicAuth, BrowserSession, createSignInUser, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

const VERIFIER = 'g'.repeat(64);
const GRACE_SECONDS = 30;
const PARALLEL = 8;
const SHARED = ['SQLITE_PATH', 'DATABASE_URL', 'DATABASE_SCHEMA', 'REDIS_URL', 'REDIS_KEY_PREFIX'];

type Pair = { access_token: string; refresh_token: string };

/**
 * REFRESH_TOKEN_GRACE_PERIOD (CONTRACT §3): two instances on one database, both with the grace period
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

  async function familyOf(token: string): Promise<string> {
    const [row] = await db.query(`SELECT family_id FROM oauth_refresh_tokens WHERE token_hash = '${createHash('sha256').update(token).digest('hex')}'`);
    return row.family_id;
  }

  /** Moves the rotation of every rotated token of the family `seconds` into the past. */
  async function ageRotation(familyId: string, seconds: number) {
    await db.query(`UPDATE oauth_refresh_tokens SET rotated_at = rotated_at - ${seconds * 1000} WHERE family_id = '${familyId}' AND rotated_at IS NOT NULL`);
  }

  it('lets two concurrent refreshes with one token, on two instances, both succeed with pairs of the same family', async () => {
    const first = await pair();
    const [x, y] = await Promise.all([ok(refresh(a.url, first.refresh_token)), ok(refresh(b.url, first.refresh_token))]);
    expect(x.refresh_token).not.toBe(y.refresh_token);
    expect(await familyOf(x.refresh_token)).toBe(await familyOf(first.refresh_token));
    expect(await familyOf(y.refresh_token)).toBe(await familyOf(first.refresh_token));
    // Both pairs work, and each goes on rotating; the presented token stays inactive.
    for (const next of [x, y]) {
      expect(await active(next.access_token)).toBe(true);
      await ok(refresh(a.url, next.refresh_token));
    }
    expect(await active(first.refresh_token)).toBe(false);
  });

  it(`lets ${PARALLEL} parallel refreshes with one token, spread over both instances, all succeed`, async () => {
    const first = await pair();
    const results = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => refresh(instance(i), first.refresh_token)));
    expect(results.map((r) => r.status)).toEqual(Array(PARALLEL).fill(200));
    expect(new Set(results.map((r) => r.body.refresh_token)).size).toBe(PARALLEL);
    for (const r of results) expect(await active(r.body.access_token)).toBe(true);
  });

  it('answers a retry of the latest rotated token with a new pair each time (a lost answer)', async () => {
    const first = await pair();
    const lost = await ok(refresh(a.url, first.refresh_token));
    const retry = await ok(refresh(b.url, first.refresh_token));
    const again = await ok(refresh(a.url, first.refresh_token));
    expect(new Set([lost.refresh_token, retry.refresh_token, again.refresh_token]).size).toBe(3);
    expect(await active(lost.refresh_token)).toBe(true);
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

    it('lets every one of the interleaved refreshes of one token succeed', async () => {
      const first = await pair();
      const tokens = a.app.get(TokenService);
      const results = await Promise.allSettled(
        Array.from({ length: PARALLEL }, () => tokens.grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, registered)),
      );
      expect(results.map((r) => r.status)).toEqual(Array(PARALLEL).fill('fulfilled'));
    });

    it('decides a retry of the parent racing the rotation of its child as one order or the other', async () => {
      const first = await pair();
      const second = await ok(refresh(a.url, first.refresh_token));
      const tokens = a.app.get(TokenService);
      const [child, parent] = await Promise.allSettled([
        tokens.grant({ grant_type: 'refresh_token', refresh_token: second.refresh_token }, registered),
        tokens.grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, registered),
      ]);
      // The child's rotation is always legitimate. The parent's retry passes only if it was decided before
      // the child's rotation (then both pairs live on); after it, the parent is no longer the latest
      // rotated token, so it is a replay and the family goes, the child's new pair included.
      expect(child.status).toBe('fulfilled');
      const childPair = (child as PromiseFulfilledResult<Pair>).value;
      expect(await active(childPair.refresh_token)).toBe(parent.status === 'fulfilled');
      if (parent.status === 'fulfilled') expect(await active(parent.value.refresh_token as string)).toBe(true);
      else expect(parent.reason).toMatchObject({ error: 'invalid_grant' });
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

import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { http, HttpResponse } from '../helpers/http';
import { BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, OAuthTestUser, registerClient } from '../helpers/oauth';
import { engine, isolatedStorage, startTestApp, TestApp } from '../helpers/test-app';

/**
 * The Device Authorization Grant on two instances sharing one PostgreSQL (and Redis when
 * TEST_REDIS_URL is set): a code issued and approved on one is redeemed on the other, exactly once
 * under concurrent polls on both; user-code guesses split across both are counted together.
 */
const shared = engine() === 'postgres' ? describe : describe.skip;
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const MAX = 5;

shared('device flow on two instances sharing one database', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let a: TestApp;
  let b: TestApp;
  let client: OAuthTestClient;
  let user: OAuthTestUser;

  beforeAll(async () => {
    storage = await isolatedStorage();
    const env = { ...storage.env, SESSION_SECRET: 'one secret for every instance, 32+ characters long', SIGN_IN_MAX_FAILURES: String(MAX), TRUST_PROXY: 'true' };
    // One after the other, so the migrations run once.
    a = await startTestApp(env);
    b = await startTestApp(env);
    client = await registerClient(a.app, { type: 'public', scopes: ['openid', 'profile'], deviceFlow: true });
    user = await createSignInUser(a.app);
  }, 300_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await storage?.drop();
  });

  function form(base: string, path: string, fields: Record<string, string>): Promise<HttpResponse> {
    return http(base, path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  }

  it('approved on one instance, redeemed exactly once under 20 concurrent polls on both', async () => {
    const started = await form(a.url, '/oauth/device_authorization', { client_id: client.clientId, scope: 'openid profile' });
    expect(started.status).toBe(200);
    const { device_code: deviceCode, user_code: userCode } = started.body;
    expect((await form(b.url, '/oauth/token', { grant_type: DEVICE_GRANT, client_id: client.clientId, device_code: deviceCode })).body.error).toBe('authorization_pending');

    const browser = new BrowserSession(a.url);
    const signIn = await browser.get('/oauth/sign-in');
    expect((await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password })).status).toBe(303);
    const consent = await browser.get(`/device/consent?user_code=${userCode}`);
    expect(consent.status).toBe(200);
    expect((await browser.post('/device/consent', { ...hiddenInputs(consent.text), decision: 'approve' })).status).toBe(200);

    const polls = await Promise.all(
      Array.from({ length: 20 }, (_, i) => form(i % 2 ? a.url : b.url, '/oauth/token', { grant_type: DEVICE_GRANT, client_id: client.clientId, device_code: deviceCode })),
    );
    const won = polls.filter((p) => p.status === 200);
    expect(won).toHaveLength(1);
    expect(won[0].body.id_token).toEqual(expect.any(String));
    for (const lost of polls.filter((p) => p.status !== 200)) expect([lost.status, lost.body.error]).toEqual([400, 'invalid_grant']);
    const me = await http(b.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${won[0].body.access_token}` } });
    expect(me.status).toBe(200);
    // One set of tokens stored, not one per poll that read the code as approved before it was redeemed.
    const stored: Array<{ n: string }> = await a.app.get(DataSource).query(
      `SELECT COUNT(*) AS n FROM oauth_access_tokens WHERE client_id = (SELECT id FROM oauth_clients WHERE client_id = $1)`,
      [client.clientId],
    );
    expect(Number(stored[0].n)).toBe(1);
    // And a later poll on either instance finds it used.
    expect((await form(a.url, '/oauth/token', { grant_type: DEVICE_GRANT, client_id: client.clientId, device_code: deviceCode })).body.error).toBe('invalid_grant');
  });

  it('counts user-code guesses split across both instances on one counter', async () => {
    const ip = '10.88.0.1';
    const browsers = [new BrowserSession(a.url), new BrowserSession(b.url)];
    const forms = await Promise.all(browsers.map(async (s) => hiddenInputs((await s.get('/device')).text)));
    // A failed sign-in on each instance first, from another address: the sign-in throttle runs the same
    // counting script with two counters, and the user-code guesses with one. Both must reach the shared
    // store on every instance, whichever ran first (with Redis, one instance used to fall back to the
    // database here and allow its own five guesses).
    for (const [i, s] of browsers.entries()) {
      const signIn = await s.get('/oauth/sign-in');
      const failed = await s.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: 'not the password' }, { 'x-forwarded-for': '10.88.9.9' });
      expect(failed.status).toBe(400);
      expect((await s.post('/device', { ...forms[i], user_code: 'ZZZZ-ZZZZ' }, { 'x-forwarded-for': '10.88.9.9' })).status).toBe(400);
    }
    const guesses = await Promise.all(
      Array.from({ length: 16 }, (_, i) => browsers[i % 2].post('/device', { ...forms[i % 2], user_code: 'ZZZZ-ZZZZ' }, { 'x-forwarded-for': ip })),
    );
    expect(guesses.map((g) => g.status).sort()).toEqual([...Array(MAX).fill(400), ...Array(16 - MAX).fill(429)]);
    for (const refused of guesses.filter((g) => g.status === 429)) expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Both instances counted in the same place: Redis when configured, else the database.
    expect(await storedGuesses(ip)).toBe(MAX);
  });

  /** The count of wrong user codes from `ip` where the instances keep it. */
  async function storedGuesses(ip: string): Promise<number> {
    const key = `usercode:ip:${ip}`;
    if (a.env.REDIS_URL) {
      const redis = new Redis(a.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      try {
        return Number(await redis.hget(`${a.env.REDIS_KEY_PREFIX}signin:${key}`, 'count'));
      } finally {
        redis.disconnect();
      }
    }
    const rows: Array<{ failures: number | string }> = await a.app.get(DataSource).query('SELECT failures FROM sign_in_throttles WHERE "key" = $1', [key]);
    return Number(rows[0]?.failures ?? 0);
  }
});

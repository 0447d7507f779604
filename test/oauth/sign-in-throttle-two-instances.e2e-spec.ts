import { DataSource } from 'typeorm';
import Redis from 'ioredis';
import { SignInThrottleService } from '../../src/rate-limit/sign-in-throttle.service';
import { UsersService } from '../../src/users/users.service';
import { authorizePath, BrowserResponse, BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, registerClient } from '../helpers/oauth';
import { engine, isolatedStorage, startTestApp, TestApp } from '../helpers/test-app';

/**
 * The sign-in throttle across two instances of the service sharing one PostgreSQL (and, when the
 * suite runs with TEST_REDIS_URL, one Redis): a burst of wrong passwords split across both is limited
 * to SIGN_IN_MAX_FAILURES password checks in total, counted in Redis when it is configured and in the
 * database otherwise (SECURITY.md, "Password guessing").
 */
const shared = engine() === 'postgres' ? describe : describe.skip;
const MAX = 5;

function twoInstances(withRedis: boolean) {
  return () => {
    let storage: Awaited<ReturnType<typeof isolatedStorage>>;
    let a: TestApp;
    let b: TestApp;
    let client: OAuthTestClient;
    const checks: jest.SpyInstance[] = [];

    beforeAll(async () => {
      storage = await isolatedStorage();
      const env = {
        ...storage.env,
        ...(withRedis ? {} : { REDIS_URL: '' }),
        SESSION_SECRET: 'one secret for every instance, 32+ characters long',
        SIGN_IN_MAX_FAILURES: String(MAX),
        SIGN_IN_WINDOW: '900',
        TRUST_PROXY: 'true',
      };
      // One after the other, so the migrations run once.
      a = await startTestApp(env);
      b = await startTestApp(env);
      client = await registerClient(a.app);
      for (const instance of [a, b]) checks.push(jest.spyOn(instance.app.get(UsersService), 'authenticate'));
    }, 300_000);
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await storage?.drop();
    });

    /** A sign-in form of one instance, in a browser of its own (each instance has its own origin). */
    async function formOn(instance: TestApp): Promise<{ browser: BrowserSession; form: Record<string, string> }> {
      const browser = new BrowserSession(instance.url);
      const page = await browser.get(authorizePath({ response_type: 'code', client_id: client.clientId, redirect_uri: client.redirectUri }));
      return { browser, form: hiddenInputs(page.text) };
    }

    it('limits a burst of 30 wrong passwords split across both instances to SIGN_IN_MAX_FAILURES checks in total', async () => {
      const user = await createSignInUser(a.app);
      const forms = await Promise.all([formOn(a), formOn(b)]);
      // Every post is sent before any answer comes back, alternately to each instance, each from its own address.
      const posts: Array<Promise<BrowserResponse>> = Array.from({ length: 30 }, (_, i) => {
        const { browser, form } = forms[i % 2];
        return browser.post('/oauth/sign-in', { ...form, email: user.email, password: `wrong ${i}` }, { 'x-forwarded-for': `10.9.${i}.1` });
      });
      const responses = await Promise.all(posts);
      const statuses = responses.map((res) => res.status);
      expect(statuses.filter((status) => status === 400)).toHaveLength(MAX);
      expect(statuses.filter((status) => status === 429)).toHaveLength(30 - MAX);
      expect(checks.reduce((sum, spy) => sum + spy.mock.calls.filter(([email]) => email === user.email).length, 0)).toBe(MAX);

      // Counted where every instance counts: Redis when it is configured, the database otherwise.
      const key = `account:${user.email}`;
      const rows = await a.app.get(DataSource).query(`SELECT failures FROM sign_in_throttles WHERE "key" = $1`, [key]);
      if (withRedis) {
        expect(rows).toEqual([]);
        const redis = new Redis(a.env.REDIS_URL, { lazyConnect: true });
        await redis.connect();
        try {
          expect(await redis.hget(`${a.env.REDIS_KEY_PREFIX}signin:${key}`, 'count')).toBe(String(MAX));
        } finally {
          redis.disconnect();
        }
      } else {
        expect(rows).toEqual([{ failures: MAX }]);
      }
    });

    if (withRedis) {
      it('counts in Redis an attempt whose answer this process was too busy to read for most of a second: no count split with the database', async () => {
        const throttle = a.app.get(SignInThrottleService, { strict: false });
        const key = `account:busy-${Date.now()}@example.com`;
        const reservation = throttle.reserve(key, 'ip:10.8.0.1', Date.now());
        // The script is on its way; the event loop is held as a burst of sign-ins would hold it. Redis
        // answers meanwhile, and the answer is read only afterwards: it must not count as Redis away.
        const until = Date.now() + 800;
        while (Date.now() < until);
        expect(await reservation).toMatchObject({ allowed: true, store: 'redis' });
        expect(await a.app.get(DataSource).query(`SELECT failures FROM sign_in_throttles WHERE "key" = $1`, [key])).toEqual([]);
      });
    }
  };
}

shared('sign-in throttle on two instances sharing PostgreSQL, without Redis', twoInstances(false));
(engine() === 'postgres' && process.env.TEST_REDIS_URL ? describe : describe.skip)(
  'sign-in throttle on two instances sharing PostgreSQL and Redis',
  twoInstances(true),
);

import Redis from 'ioredis';
import { createTestApiKey } from '../helpers/api-keys';
import { http, HttpResponse } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';
import { bearer, createTestClient, createTestUser, issueTestToken } from '../helpers/tokens';

const INDUSTRIES = '/api/public/v1/industries';
const STARTUPS = '/api/public/v1/startups';

function expectLimitHeaders(res: HttpResponse, limit: number, remaining: number): void {
  expect(res.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(res.headers.get('ratelimit-remaining')).toBe(String(remaining));
  const reset = Number(res.headers.get('ratelimit-reset'));
  expect(Number.isInteger(reset) && reset >= 1 && reset <= 60).toBe(true);
}

function expectRateLimited(res: HttpResponse, limit: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    error: { code: 'RATE_LIMITED', message: 'Çok fazla istek gönderildi; biraz sonra yeniden deneyin.', requestId: res.headers.get('x-request-id') },
  });
  expectLimitHeaders(res, limit, 0);
  expect(res.headers.get('retry-after')).toBe(res.headers.get('ratelimit-reset'));
}

describe('rate limits (docs/using-the-api.md)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ANONYMOUS: '3', RATE_LIMIT_STANDARD: '4', RATE_LIMIT_PARTNER: '6', RATE_LIMIT_CLIENT: '5' });
  });
  afterAll(() => t.close());

  it('limits anonymous callers per IP, with headers on every answer and 429 + Retry-After over the limit', async () => {
    const first = await http(t.url, INDUSTRIES);
    expect(first.status).toBe(200);
    expectLimitHeaders(first, 3, 2);
    // Errors of a limited route count and carry the headers too.
    const notFound = await http(t.url, `${INDUSTRIES}/999999`);
    expect(notFound.status).toBe(404);
    expectLimitHeaders(notFound, 3, 1);
    const invalid = await http(t.url, `${INDUSTRIES}/abc`);
    expect(invalid.status).toBe(400);
    expectLimitHeaders(invalid, 3, 0);

    const over = await http(t.url, INDUSTRIES);
    expectRateLimited(over, 3);
    const en = await http(t.url, `${INDUSTRIES}/1`, { headers: { 'accept-language': 'en' } });
    expect(en.status).toBe(429);
    expect(en.body.error.message).toBe('Too many requests; try again later.');
    // Unauthenticated calls to Bearer routes spend the same per-IP budget.
    const bearerRoute = await http(t.url, STARTUPS);
    expectRateLimited(bearerRoute, 3);
  });

  it('limits each API key on its own tier, apart from the anonymous budget and from other keys', async () => {
    const standard = await createTestApiKey(t.app, 'standard');
    const other = await createTestApiKey(t.app, 'standard');
    const partner = await createTestApiKey(t.app, 'partner');

    for (let i = 0; i < 4; i++) {
      const res = await http(t.url, INDUSTRIES, { headers: { 'x-api-key': standard.key } });
      expect(res.status).toBe(200);
      expectLimitHeaders(res, 4, 3 - i);
    }
    expectRateLimited(await http(t.url, INDUSTRIES, { headers: { 'x-api-key': standard.key } }), 4);

    const fresh = await http(t.url, INDUSTRIES, { headers: { 'x-api-key': other.key } });
    expect(fresh.status).toBe(200);
    expectLimitHeaders(fresh, 4, 3);
    const partnerRes = await http(t.url, INDUSTRIES, { headers: { 'x-api-key': partner.key } });
    expect(partnerRes.status).toBe(200);
    expectLimitHeaders(partnerRes, 6, 5);
  });

  it('limits Bearer calls per OAuth client, whichever user or key is behind them', async () => {
    const clientId = await createTestClient(t.app);
    const [alice, bob] = await Promise.all([createTestUser(t.app), createTestUser(t.app)]);
    const a = await issueTestToken(t.app, { scopes: ['read:startups', 'profile'], user: alice, clientId });
    const b = await issueTestToken(t.app, { scopes: ['read:startups', 'profile'], user: bob, clientId });
    const key = await createTestApiKey(t.app, 'partner');

    const calls = [
      () => http(t.url, STARTUPS, { headers: bearer(a.token) }),
      () => http(t.url, '/api/public/v1/me', { headers: bearer(b.token) }),
      () => http(t.url, `${STARTUPS}/1`, { headers: bearer(a.token) }),
      () => http(t.url, STARTUPS, { headers: { ...bearer(b.token), 'x-api-key': key.key } }),
      () => http(t.url, STARTUPS, { headers: bearer(a.token) }),
    ];
    for (const [i, call] of calls.entries()) {
      const res = await call();
      expect(res.status).toBeLessThan(429);
      expectLimitHeaders(res, 5, 4 - i);
    }
    expectRateLimited(await http(t.url, STARTUPS, { headers: bearer(b.token) }), 5);

    // Another client has its own budget; the key used above still has all of its own.
    const otherClient = await issueTestToken(t.app, { scopes: ['read:startups'] });
    const res = await http(t.url, STARTUPS, { headers: bearer(otherClient.token) });
    expect(res.status).toBe(200);
    expectLimitHeaders(res, 5, 4);
    expectLimitHeaders(await http(t.url, INDUSTRIES, { headers: { 'x-api-key': key.key } }), 6, 5);
  });

  it('sends the headers with a 403 for a missing scope too', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['profile'] });
    const res = await http(t.url, STARTUPS, { headers: bearer(token) });
    expect(res.status).toBe(403);
    expectLimitHeaders(res, 5, 4);
  });

  it('does not limit public routes', async () => {
    const res = await http(t.url, '/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
  });
});

describe('the client IP behind a proxy (TRUST_PROXY)', () => {
  it('counts per forwarded address only when the proxy is trusted', async () => {
    const trusted = await startTestApp({ RATE_LIMIT_ANONYMOUS: '1', TRUST_PROXY: 'true' });
    const untrusted = await startTestApp({ RATE_LIMIT_ANONYMOUS: '1' });
    try {
      const from = (t: TestApp, ip: string) => http(t.url, INDUSTRIES, { headers: { 'x-forwarded-for': ip } });
      expect((await from(trusted, '203.0.113.1')).status).toBe(200);
      expect((await from(trusted, '203.0.113.1')).status).toBe(429);
      expect((await from(trusted, '203.0.113.2')).status).toBe(200);

      expect((await from(untrusted, '203.0.113.1')).status).toBe(200);
      // Without a trusted proxy the header is the caller's own claim: it must not buy a new budget.
      expect((await from(untrusted, '203.0.113.2')).status).toBe(429);
    } finally {
      await Promise.all([trusted.close(), untrusted.close()]);
    }
  });
});

const withRedis = process.env.E2E_DATABASE === 'postgres' && process.env.TEST_REDIS_URL ? describe : describe.skip;

withRedis('counters shared through Redis (REDIS_URL)', () => {
  it('counts one budget across instances, under the configured key prefix', async () => {
    const first = await startTestApp({ RATE_LIMIT_ANONYMOUS: '4' });
    const prefix = first.env.REDIS_KEY_PREFIX;
    const second = await startTestApp({ RATE_LIMIT_ANONYMOUS: '4', REDIS_KEY_PREFIX: prefix });
    const redis = new Redis(process.env.TEST_REDIS_URL!, { lazyConnect: true });
    try {
      expectLimitHeaders(await http(first.url, INDUSTRIES), 4, 3);
      expectLimitHeaders(await http(second.url, INDUSTRIES), 4, 2);
      expectLimitHeaders(await http(first.url, INDUSTRIES), 4, 1);
      expectLimitHeaders(await http(second.url, INDUSTRIES), 4, 0);
      expectRateLimited(await http(first.url, INDUSTRIES), 4);

      await redis.connect();
      const keys = await redis.keys(`${prefix}rl:*`);
      expect(keys).toEqual([`${prefix}rl:ip:127.0.0.1`]);
      const ttl = await redis.pttl(keys[0]);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      redis.disconnect();
      await Promise.all([first.close(), second.close()]);
    }
  });
});

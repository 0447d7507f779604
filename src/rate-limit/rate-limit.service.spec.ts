import { FastifyReply } from 'fastify';
import { AppError } from '../common/errors/app-error';
import { MemoryRateLimitStore } from './memory-rate-limit.store';
import { setRateLimitHeaders } from './rate-limit.headers';
import { RateLimitService } from './rate-limit.service';
import { RateLimitKeys } from './rate-limit.types';
import { MetricsService } from '../metrics/metrics.service';
import type { DatabaseInfo } from '../database/database-info';

const config = { anonymous: 3, standard: 10, partner: 100, client: 50, redisUrl: undefined, redisKeyPrefix: 'sp:' };

const sqlite = { postgresPool: () => undefined } as unknown as DatabaseInfo;
const metricsOff = () => new MetricsService({ port: undefined, host: '127.0.0.1' }, sqlite);

function fakeReply() {
  const headers: Record<string, string> = {};
  const reply = { header: (name: string, value: string) => ((headers[name] = value), reply) };
  return { reply: reply as unknown as FastifyReply, headers };
}

describe('RateLimitService (memory)', () => {
  let sut: RateLimitService;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_700_000_000_000 });
    sut = new RateLimitService(config, metricsOff());
  });
  afterEach(async () => {
    await sut.onModuleDestroy();
    jest.useRealTimers();
  });

  it('counts down the remaining requests and refuses the one over the limit', async () => {
    expect(await sut.consume('ip:1', 2)).toEqual({ limit: 2, remaining: 1, resetSeconds: 60, allowed: true });
    expect(await sut.consume('ip:1', 2)).toEqual({ limit: 2, remaining: 0, resetSeconds: 60, allowed: true });
    expect(await sut.consume('ip:1', 2)).toEqual({ limit: 2, remaining: 0, resetSeconds: 60, allowed: false });
  });

  it('counts a request worth several (each message of a batch) as that many, and refuses one that would pass the limit', async () => {
    expect(await sut.consume('client:1', 10, 4)).toEqual({ limit: 10, remaining: 6, resetSeconds: 60, allowed: true });
    expect((await sut.consume('client:1', 10, 7)).allowed).toBe(false);
    expect((await sut.consume('client:1', 10)).allowed).toBe(false);
  });

  it('keeps a counter per key', async () => {
    await sut.consume('ip:1', 1);
    expect((await sut.consume('ip:1', 1)).allowed).toBe(false);
    expect((await sut.consume('ip:2', 1)).allowed).toBe(true);
  });

  it('reports the seconds left in the window and starts a new one after a minute', async () => {
    await sut.consume('k', 1);
    jest.advanceTimersByTime(45_500);
    expect(await sut.consume('k', 1)).toMatchObject({ allowed: false, resetSeconds: 15 });
    jest.advanceTimersByTime(14_500);
    expect(await sut.consume('k', 1)).toEqual({ limit: 1, remaining: 0, resetSeconds: 60, allowed: true });
  });

  it('enforce() sets the headers and throws RATE_LIMITED with Retry-After over the limit', async () => {
    const { reply, headers } = fakeReply();
    await sut.enforce(reply, 'k', 1);
    expect(headers).toEqual({ 'ratelimit-limit': '1', 'ratelimit-remaining': '0', 'ratelimit-reset': '60' });
    jest.advanceTimersByTime(20_000);
    const error = await Promise.resolve()
      .then(() => sut.enforce(reply, 'k', 1))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('RATE_LIMITED');
    expect((error as AppError).headers).toEqual({ 'retry-after': '40' });
    expect(headers['ratelimit-reset']).toBe('40');
  });

  it('counts each refusal once, by the tier of its counter', async () => {
    const metrics = new MetricsService({ port: 0, host: '127.0.0.1' }, sqlite);
    const counted = new RateLimitService(config, metrics);
    const { reply } = fakeReply();
    // Counted in memory, a refusal is thrown at once rather than as a rejected promise: both are refusals.
    const enforce = async (key: string, limit: number) => counted.enforce(reply, key, limit);
    const refused = async (key: string, limit: number) => {
      for (let i = 0; i < limit; i++) await enforce(key, limit);
      await expect(enforce(key, limit)).rejects.toBeInstanceOf(AppError);
    };
    await refused(RateLimitKeys.anonymous('10.0.0.1'), 1);
    await refused(RateLimitKeys.apiKey(7), config.standard);
    await refused(RateLimitKeys.apiKey(8), config.partner);
    await refused(RateLimitKeys.client(9), config.client);
    await expect(enforce(RateLimitKeys.client(9), config.client)).rejects.toBeInstanceOf(AppError);
    const values = (await metrics.registry!.getSingleMetric('rate_limited_requests_total')!.get()).values;
    expect(Object.fromEntries(values.map((v) => [v.labels.tier, v.value]))).toEqual({ anonymous: 1, standard: 1, partner: 1, client: 2 });
    await counted.onModuleDestroy();
  });

  it('exposes the configured limits', () => {
    expect(sut.limits).toEqual({ anonymous: 3, standard: 10, partner: 100, client: 50 });
  });
});

describe('MemoryRateLimitStore', () => {
  it('sweeps windows that have ended', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(60_000, () => now);
    await store.hit('a', 1000);
    await store.hit('b', 5000);
    now = 2000;
    store.sweep();
    expect(store.size).toBe(1);
    await store.close();
  });
});

describe('setRateLimitHeaders', () => {
  it('writes the three RateLimit fields', () => {
    const { reply, headers } = fakeReply();
    setRateLimitHeaders(reply, { limit: 60, remaining: 59, resetSeconds: 12, allowed: true });
    expect(headers).toEqual({ 'ratelimit-limit': '60', 'ratelimit-remaining': '59', 'ratelimit-reset': '12' });
  });
});

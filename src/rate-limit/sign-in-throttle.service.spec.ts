import { randomBytes } from 'node:crypto';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { authConfig } from '../config/configuration';
import { MIGRATIONS } from '../database/migrations';
import { RateLimitService } from './rate-limit.service';
import { RedisRateLimitStore } from './redis-rate-limit.store';
import { SignInThrottle } from './sign-in-throttle.entity';
import { deviceThrottleKey, Reservation, SignInThrottleService } from './sign-in-throttle.service';
import { SignInThrottlesRepository } from './sign-in-throttles.repository';
import { betterSqlite3 } from '../database/sqlite-driver';

const MAX = 5;
const WINDOW_SECONDS = 600;
const T0 = 1_790_000_000_000;

/**
 * The throttle on a real schema (SQLite in memory, every migration) and, when TEST_REDIS_URL is set, on
 * a real Redis under a key prefix of its own. Time is the `now` each call is given: the window's end is
 * reached by passing a later instant, never by waiting.
 */
const stores: Array<'database' | 'redis'> = process.env.TEST_REDIS_URL ? ['database', 'redis'] : ['database'];

describe.each(stores)('SignInThrottleService (%s)', (store) => {
  let dataSource: DataSource;
  let redis: RedisRateLimitStore | undefined;
  let sut: SignInThrottleService;

  beforeEach(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', driver: betterSqlite3(), database: ':memory:', entities: [SignInThrottle], migrations: MIGRATIONS }).initialize();
    await dataSource.runMigrations();
    if (store === 'redis') {
      redis = new RedisRateLimitStore(process.env.TEST_REDIS_URL!, `unit_${randomBytes(6).toString('hex')}:`);
      await redis.connect();
    }
    const moduleRef = await Test.createTestingModule({
      providers: [
        SignInThrottleService,
        SignInThrottlesRepository,
        { provide: DataSource, useValue: dataSource },
        { provide: authConfig.KEY, useValue: { signInMaxFailures: MAX, signInMaxFailuresPerIp: MAX, signInWindowSeconds: WINDOW_SECONDS } },
        { provide: RateLimitService, useValue: { redis } },
      ],
    }).compile();
    sut = moduleRef.get(SignInThrottleService);
  });
  afterEach(async () => {
    await redis?.close();
    redis = undefined;
    await dataSource.destroy();
  });

  const account = (n = 1) => `account:user${n}@example.com`;
  const ip = (n = 1) => `ip:10.0.0.${n}`;
  const allowed = (r: Reservation) => r.allowed;

  it('allows SIGN_IN_MAX_FAILURES attempts and refuses the next with the seconds left in the window', async () => {
    for (let i = 0; i < MAX; i++) expect(await sut.reserve(account(), ip(), T0 + i)).toMatchObject({ allowed: true });
    expect(await sut.reserve(account(), ip(2), T0 + 100_000)).toEqual({ allowed: false, retryAfterSeconds: WINDOW_SECONDS - 100 });
  });

  it('of 30 simultaneous attempts on one account, lets exactly SIGN_IN_MAX_FAILURES through', async () => {
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => sut.reserve(account(), ip(i + 1), T0)));
    expect(results.filter(allowed)).toHaveLength(MAX);
    expect(results.filter((r) => !r.allowed)).toHaveLength(30 - MAX);
  });

  it('limits an address that tries many accounts on its own counter', async () => {
    for (let n = 1; n <= MAX; n++) expect((await sut.reserve(account(n), ip(), T0)).allowed).toBe(true);
    expect(await sut.reserve(account(99), ip(), T0)).toEqual({ allowed: false, retryAfterSeconds: WINDOW_SECONDS });
    // The account itself is fine from another address.
    expect((await sut.reserve(account(99), ip(2), T0)).allowed).toBe(true);
  });

  it('does not count a refused attempt: its slots are given back', async () => {
    for (let i = 0; i < MAX; i++) await sut.reserve(account(), ip(1), T0);
    // Ten refusals from address 2 leave address 2 with no failures at all.
    for (let i = 0; i < 10; i++) expect((await sut.reserve(account(), ip(2), T0)).allowed).toBe(false);
    for (let n = 2; n <= MAX + 1; n++) expect((await sut.reserve(account(n), ip(2), T0)).allowed).toBe(true);
    expect((await sut.reserve(account(MAX + 2), ip(2), T0)).allowed).toBe(false);
  });

  it('starts a new window once SIGN_IN_WINDOW has passed since the first attempt', async () => {
    for (let i = 0; i < MAX; i++) await sut.reserve(account(), ip(), T0);
    expect(await sut.reserve(account(), ip(), T0 + WINDOW_SECONDS * 1000 - 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect((await sut.reserve(account(), ip(), T0 + WINDOW_SECONDS * 1000)).allowed).toBe(true);
  });

  it('on success clears the account counter, keeps the IP failures and gives the IP this attempt slot back', async () => {
    for (let i = 0; i < MAX - 1; i++) await sut.reserve(account(), ip(), T0); // failures
    const right = await sut.reserve(account(), ip(), T0);
    expect(right.allowed).toBe(true);
    await sut.succeeded(right as Extract<Reservation, { allowed: true }>);
    // The address has MAX - 1 failures: one more attempt, then it is full, whatever the account.
    expect((await sut.reserve(account(2), ip(), T0)).allowed).toBe(true);
    expect((await sut.reserve(account(3), ip(), T0)).allowed).toBe(false);
    // The account starts again: MAX attempts from elsewhere.
    for (let n = 2; n < MAX + 2; n++) expect((await sut.reserve(account(), ip(n), T0)).allowed).toBe(true);
    expect((await sut.reserve(account(), ip(99), T0)).allowed).toBe(false);
  });

  it('counts a known browser apart from its account: a full account counter does not refuse it', async () => {
    for (let n = 1; n <= MAX; n++) await sut.reserve(account(), ip(n), T0);
    expect((await sut.reserve(account(), ip(50), T0)).allowed).toBe(false);
    const device = deviceThrottleKey('n'.repeat(22));
    for (let i = 0; i < MAX; i++) expect((await sut.reserve(device, ip(50), T0)).allowed).toBe(true);
    // The device's own counter is limited too, and locks only that device.
    expect((await sut.reserve(device, ip(51), T0)).allowed).toBe(false);
    expect((await sut.reserve(deviceThrottleKey('m'.repeat(22)), ip(51), T0)).allowed).toBe(true);
  });

  it('keeps its counters in the store every instance shares', async () => {
    await sut.reserve(account(), ip(), T0);
    const rows = await dataSource.getRepository(SignInThrottle).find({ order: { key: 'ASC' } });
    if (store === 'database') {
      expect(rows).toEqual([
        { key: account(), failures: 1, windowStartedAt: T0 },
        { key: ip(), failures: 1, windowStartedAt: T0 },
      ]);
    } else {
      expect(rows).toEqual([]);
    }
  });
});

const PER_IP = 12;

/** SIGN_IN_MAX_FAILURES_PER_IP above SIGN_IN_MAX_FAILURES (README.md, SIGN_IN_MAX_FAILURES_PER_IP): each counter at its own number. */
describe.each(stores)('SignInThrottleService with a per-IP limit of its own (%s)', (store) => {
  let dataSource: DataSource;
  let redis: RedisRateLimitStore | undefined;
  let sut: SignInThrottleService;

  beforeEach(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', driver: betterSqlite3(), database: ':memory:', entities: [SignInThrottle], migrations: MIGRATIONS }).initialize();
    await dataSource.runMigrations();
    if (store === 'redis') {
      redis = new RedisRateLimitStore(process.env.TEST_REDIS_URL!, `unit_${randomBytes(6).toString('hex')}:`);
      await redis.connect();
    }
    const moduleRef = await Test.createTestingModule({
      providers: [
        SignInThrottleService,
        SignInThrottlesRepository,
        { provide: DataSource, useValue: dataSource },
        { provide: authConfig.KEY, useValue: { signInMaxFailures: MAX, signInMaxFailuresPerIp: PER_IP, signInWindowSeconds: WINDOW_SECONDS } },
        { provide: RateLimitService, useValue: { redis } },
      ],
    }).compile();
    sut = moduleRef.get(SignInThrottleService);
  });
  afterEach(async () => {
    await redis?.close();
    redis = undefined;
    await dataSource.destroy();
  });

  it('holds an account at SIGN_IN_MAX_FAILURES while its address goes on, for other accounts, to SIGN_IN_MAX_FAILURES_PER_IP', async () => {
    const office = 'ip:192.0.2.7';
    for (let i = 0; i < MAX; i++) expect((await sut.reserve('account:one@example.com', office, T0)).allowed).toBe(true);
    expect((await sut.reserve('account:one@example.com', office, T0)).allowed).toBe(false);
    for (let n = MAX; n < PER_IP; n++) expect((await sut.reserve(`account:other${n}@example.com`, office, T0)).allowed).toBe(true);
    expect(await sut.reserve('account:next@example.com', office, T0 + 1000)).toEqual({ allowed: false, retryAfterSeconds: WINDOW_SECONDS - 1 });
    expect((await sut.reserve('account:next@example.com', 'ip:192.0.2.8', T0)).allowed).toBe(true);
  });

  it('of 30 simultaneous attempts on 30 accounts from one address, lets exactly SIGN_IN_MAX_FAILURES_PER_IP through', async () => {
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => sut.reserve(`account:sprayed${i}@example.com`, 'ip:192.0.2.9', T0)));
    expect(results.filter(allowedResult)).toHaveLength(PER_IP);
  });
});

const allowedResult = (r: Reservation) => r.allowed;

describe('SignInThrottleService with Redis unreachable', () => {
  it('counts in the database instead of letting attempts through', async () => {
    const dataSource = await new DataSource({ type: 'better-sqlite3', driver: betterSqlite3(), database: ':memory:', entities: [SignInThrottle], migrations: MIGRATIONS }).initialize();
    await dataSource.runMigrations();
    // Nothing listens on port 1; the connection is never opened, so every script fails at once.
    const redis = new RedisRateLimitStore('redis://127.0.0.1:1', 'down:');
    const moduleRef = await Test.createTestingModule({
      providers: [
        SignInThrottleService,
        SignInThrottlesRepository,
        { provide: DataSource, useValue: dataSource },
        { provide: authConfig.KEY, useValue: { signInMaxFailures: 2, signInMaxFailuresPerIp: 2, signInWindowSeconds: 60 } },
        { provide: RateLimitService, useValue: { redis } },
      ],
    }).compile();
    const sut = moduleRef.get(SignInThrottleService);
    jest.spyOn(sut['logger'], 'warn').mockImplementation(() => undefined);
    expect((await sut.reserve('account:a@example.com', 'ip:1', T0)).allowed).toBe(true);
    expect((await sut.reserve('account:a@example.com', 'ip:2', T0)).allowed).toBe(true);
    expect(await sut.reserve('account:a@example.com', 'ip:3', T0)).toEqual({ allowed: false, retryAfterSeconds: 60 });
    await redis.close();
    await dataSource.destroy();
  });
});

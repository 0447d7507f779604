// The limiter of src/rate-limit against rate-limiter-flexible (README.md "Why it is made so"), on what the
// service asks of it:
//   1. a request's hit (RateLimitService: one counter per caller, one-minute fixed windows): CPU µs per hit
//      of MemoryRateLimitStore against RateLimiterMemory, and of RedisRateLimitStore (one Lua round trip)
//      against RateLimiterRedis (ioredis, 50 hits in flight), on the same Redis;
//   2. what the sign-in throttle's contract needs and the library lacks: windows on the application's
//      clock, which the suites move instead of waiting (docs/testing.md); and one attempt counted on two
//      counters of different keys (the account's, the IP's) at once, taken back from both when either is
//      full, so that a refused attempt never charges the other counter.
//   npx tsx bench/rate-limit.ts [hits=200000]     (Redis from BENCH_REDIS_URL, default redis://127.0.0.1:6379; skipped when unreachable)
import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, RateLimiterUnion } from 'rate-limiter-flexible';
import { MemoryRateLimitStore } from '../src/rate-limit/memory-rate-limit.store';
import { RedisRateLimitStore } from '../src/rate-limit/redis-rate-limit.store';

const HITS = Number(process.argv[2] ?? 200_000);
const KEYS = 1000;
const WINDOW_MS = 60_000;

/** CPU µs (user + system) per call of `hit`, `inFlight` calls at a time, median of 5 interleaved runs. */
async function cpuPerHit(hits: number, inFlight: number, hit: (key: string) => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < hits; i += inFlight) {
    const batch: Array<Promise<unknown>> = [];
    for (let j = i; j < Math.min(hits, i + inFlight); j++) batch.push(hit(`ip:${j % KEYS}`));
    await Promise.all(batch);
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / hits;
}

async function compare(title: string, hits: number, inFlight: number, ways: Record<string, (key: string) => Promise<unknown>>): Promise<void> {
  const runs: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
  for (const name of Object.keys(ways)) await cpuPerHit(Math.min(hits, 20_000), inFlight, ways[name]);
  for (let round = 0; round < 5; round++) {
    const order = Object.keys(ways);
    if (round % 2 === 1) order.reverse();
    for (const name of order) runs[name].push(await cpuPerHit(hits, inFlight, ways[name]));
  }
  console.log(title);
  for (const [name, values] of Object.entries(runs)) console.log(`  ${name.padEnd(28)} ${[...values].sort((a, b) => a - b)[2].toFixed(2).padStart(7)} CPU µs per hit`);
}

async function main(): Promise<void> {
  const ours = new MemoryRateLimitStore();
  // The limit is never reached here: rate-limiter-flexible rejects (throws) over it, which costs more.
  const library = new RateLimiterMemory({ points: 1_000_000_000, duration: WINDOW_MS / 1000 });
  await compare('1. a request hit, in memory', HITS, 1, { 'src/rate-limit (memory)': (key) => ours.hit(key, WINDOW_MS), 'rate-limiter-flexible memory': (key) => library.consume(key) });
  await ours.close();

  const url = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  probe.on('error', () => undefined);
  const reachable = await probe.connect().then(() => true, () => false);
  if (reachable) {
    const prefix = `bench-rl-${process.pid}:`;
    const store = new RedisRateLimitStore(url, prefix);
    await store.connect();
    const flexible = new RateLimiterRedis({ storeClient: probe, points: 1_000_000_000, duration: WINDOW_MS / 1000, keyPrefix: `${prefix}flexible` });
    await compare('   a request hit, on Redis (50 in flight)', Math.floor(HITS / 10), 50, { 'src/rate-limit (Redis)': (key) => store.hit(key, WINDOW_MS), 'rate-limiter-flexible Redis': (key) => flexible.consume(key) });
    const keys = await probe.keys(`${prefix}*`);
    for (let i = 0; i < keys.length; i += 500) await probe.del(...keys.slice(i, i + 500));
    await store.close();
  } else {
    console.log(`   (Redis at ${url} unreachable: the Redis comparison was skipped)`);
  }
  probe.disconnect();

  // 2a. The window follows the process's Date.now(): a limiter created with the suites' clock moved an
  // hour on still refuses, where the throttle (ARGV[1] = the application's `now`) has started a new window.
  const account = new RateLimiterMemory({ points: 5, duration: 900 });
  for (let i = 0; i < 5; i++) await account.consume('ada@example.com');
  const movedClock = await account.consume('ada@example.com').then(
    () => 'allowed',
    (refusal: RateLimiterRes) => `refused for ${Math.round(refusal.msBeforeNext / 1000)} s more, whatever the application's clock says`,
  );
  console.log(`2a. sixth attempt after SIGN_IN_WINDOW on the application's clock: ${movedClock}`);

  // 2b. Two counters of one attempt: the union consumes the same key on both limiters, so the account's
  // and the IP's counters cannot have their own keys; and a refusal by one leaves the other charged.
  const perAccount = new RateLimiterMemory({ points: 5, duration: 900, keyPrefix: 'account' });
  const perIp = new RateLimiterMemory({ points: 1, duration: 900, keyPrefix: 'ip' });
  const union = new RateLimiterUnion(perAccount, perIp);
  for (let i = 0; i < 3; i++) await union.consume('203.0.113.7').catch(() => undefined);
  const left = (await perAccount.get('203.0.113.7'))?.consumedPoints ?? 0;
  console.log(`2b. three attempts, the second and third refused by the IP's counter: the account's counter holds ${left} (the throttle's: 1)`);
}

void main();

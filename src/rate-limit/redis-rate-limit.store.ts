import Redis from 'ioredis';
import { RateLimitStore } from './rate-limit.types';

/**
 * INCR and the window's expiry in one atomic round trip. The expiry is set by the hit that opens the
 * window; a key that somehow lost its TTL (PTTL -1) gets one, so no counter can live forever.
 */
const HIT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if count == tonumber(ARGV[2]) or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`;

type RedisWithHit = Redis & { rateLimitHit(key: string, windowMs: number, requests: number): Promise<[number, number]> };

/** How long a request's rate-limit hit waits for Redis before the service falls back to memory. */
const HIT_TIMEOUT_MS = 500;
/**
 * How long a script of the shared counters (a sign-in attempt's slot) waits. A person signing in can
 * wait that long; and an answer read late only because this process was busy must not count as Redis
 * being away, or the attempt would be counted in the database while Redis had counted it too, and the
 * two halves of one count would each let their own SIGN_IN_MAX_FAILURES through.
 */
const SCRIPT_TIMEOUT_MS = 3000;

/** Fixed-window counters shared by every instance through one Redis (docs/configuration-and-deployment.md). */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RedisWithHit;
  /** The same Redis on a connection of its own, whose commands wait SCRIPT_TIMEOUT_MS (ioredis has one timeout per connection). */
  private readonly counters: Redis;
  private readonly scripts = new Set<string>();

  constructor(
    url: string,
    private readonly keyPrefix: string,
  ) {
    this.redis = new Redis(url, {
      lazyConnect: true,
      // A rate limiter must not hold requests while Redis is away: fail fast, the service falls back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: HIT_TIMEOUT_MS,
      connectTimeout: 2000,
    }) as RedisWithHit;
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.counters = this.redis.duplicate({ commandTimeout: SCRIPT_TIMEOUT_MS });
    // Connection errors are reported through failed commands; an unhandled 'error' event would crash.
    this.redis.on('error', () => undefined);
    this.counters.on('error', () => undefined);
  }

  async connect(): Promise<void> {
    await Promise.all([this.redis.connect(), this.counters.connect()]);
  }

  async hit(key: string, windowMs: number, requests = 1): Promise<{ count: number; msLeft: number }> {
    const [count, msLeft] = await this.redis.rateLimitHit(`${this.keyPrefix}rl:${key}`, windowMs, requests);
    return { count: Number(count), msLeft: Number(msLeft) };
  }

  /**
   * Runs a Lua script atomically on the counters' connection, for other counters every instance must
   * share (the sign-in throttle): `keys` are put under REDIS_KEY_PREFIX, the script is sent once and then
   * run by its SHA. Fails fast like `hit` while Redis is away (waiting up to SCRIPT_TIMEOUT_MS for an
   * answer otherwise); the caller decides how to fall back.
   *
   * A command is defined with its number of keys, so one script run with one key and with two (the
   * sign-in throttle's two counters, the user-code guesses' one) is two commands: run under a command
   * defined for another number of keys, Redis would read an argument as a key and the script would fail,
   * and this instance would count in the database while the others count in Redis.
   */
  async script<T>(name: string, lua: string, keys: string[], args: Array<string | number>): Promise<T> {
    const commandName = `${name}_${keys.length}`;
    if (!this.scripts.has(commandName)) {
      this.counters.defineCommand(commandName, { numberOfKeys: keys.length, lua });
      this.scripts.add(commandName);
    }
    const command = (this.counters as unknown as Record<string, (...args: Array<string | number>) => Promise<T>>)[commandName];
    return command.call(this.counters, ...keys.map((key) => this.keyPrefix + key), ...args);
  }

  async close(): Promise<void> {
    await Promise.all([this.redis, this.counters].map((connection) => connection.quit().catch(() => connection.disconnect())));
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { emailKey } from '../common/text/email-address';
import { replaceControlCharacters } from '../common/validation/no-control-characters.decorator';
import { authConfig } from '../config/configuration';
import { addressKey } from './address-key';
import { RateLimitService } from './rate-limit.service';
import { SignInThrottlesRepository } from './sign-in-throttles.repository';

export interface ThrottleKeys {
  account: string;
  ip: string;
}

/** The counter of one browser known to an account (a device cookie's random nonce). */
export function deviceThrottleKey(nonce: string): string {
  return `device:${nonce}`;
}

/**
 * A slot taken on both counters of one attempt before its password is checked, or the refusal.
 * `counter` is the account's or the device's counter; `ipWindowStart` identifies the IP counter's
 * window, so that giving the slot back never touches a later window.
 */
export type Reservation =
  | { allowed: true; counter: string; ip: string; ipWindowStart: number; store: 'redis' | 'database' }
  | { allowed: false; retryAfterSeconds: number };

/**
 * Increments both counters of an attempt in one atomic step (KEYS[i] limited by ARGV[2 + i], or by
 * ARGV[3] when it has no limit of its own); when either is then over its limit, takes
 * both increments back and answers how long until that counter's window ends. A window that has ended
 * starts again at `now`, the application's clock (so a test can move it). The hash holds the window's
 * start and its count; its expiry only frees the memory once the window is over.
 */
const RESERVE_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local counts, starts = {}, {}
for i, key in ipairs(KEYS) do
  local start = tonumber(redis.call('HGET', key, 'start'))
  if not start or start + window <= now then
    start = now
    redis.call('HSET', key, 'start', ARGV[1], 'count', 0)
    redis.call('PEXPIRE', key, window)
  end
  counts[i] = redis.call('HINCRBY', key, 'count', 1)
  starts[i] = start
end
local wait = 0
for i = 1, #KEYS do
  if counts[i] > tonumber(ARGV[2 + i] or ARGV[3]) then wait = math.max(wait, starts[i] + window - now) end
end
if wait > 0 then
  for _, key in ipairs(KEYS) do redis.call('HINCRBY', key, 'count', -1) end
end
return { wait, starts[1], starts[2] }
`;

/** Clears the account's (or device's) counter and gives the IP's slot back, if its window is still the one reserved in. */
const SUCCEEDED_SCRIPT = `
redis.call('DEL', KEYS[1])
if redis.call('HGET', KEYS[2], 'start') == ARGV[1] then
  redis.call('HINCRBY', KEYS[2], 'count', -1)
end
return 1
`;

/** Gives one slot back on a counter, if its window is still the one reserved in. */
const RELEASE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'start') == ARGV[1] then
  redis.call('HINCRBY', KEYS[1], 'count', -1)
end
return 1
`;

/** Makes a counter full, if its window is still the one reserved in. */
const FILL_SCRIPT = `
if redis.call('HGET', KEYS[1], 'start') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'count', ARGV[2])
end
return 1
`;

/** A slot taken on a single counter (user-code guesses per IP), or the refusal. */
export type SingleReservation =
  | { allowed: true; key: string; windowStart: number; store: 'redis' | 'database' }
  | { allowed: false; retryAfterSeconds: number };

/**
 * Sign-in attempts counted per account and per IP in fixed windows (SIGN_IN_MAX_FAILURES per account,
 * SIGN_IN_MAX_FAILURES_PER_IP per IP, per SIGN_IN_WINDOW), shared by every instance: in Redis when REDIS_URL is set (the rate limiter's
 * connection and REDIS_KEY_PREFIX), else, and while Redis cannot be reached, in the database.
 *
 * An attempt reserves its slot on both counters atomically *before* its password is checked, so
 * simultaneous attempts cannot all pass a check made before any of them is counted: past the limit the
 * attempt is refused unchecked and its slot is given back. A failed check keeps its slot (it is one of
 * the failures counted); a successful one clears the account's counter and gives its slot on the IP's
 * counter back, so the IP's counter counts failures (and checks under way) only and many people behind
 * one address who sign in successfully never lock it (SECURITY.md, "Password guessing").
 *
 * The account key is the address's canonical form (src/common/text/email-address.ts), so every spelling
 * of one mailbox shares one counter, whether or not such an account exists, so the throttle never
 * reveals which accounts exist. The IP's limit is far higher than the account's (README.md, SIGN_IN_MAX_FAILURES_PER_IP): a
 * few people mistyping behind one address hold only their own accounts, not everyone else behind it.
 */
@Injectable()
export class SignInThrottleService {
  private readonly logger = new Logger('SignInThrottle');
  private lastRedisWarning = 0;

  constructor(
    private readonly counters: SignInThrottlesRepository,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
    private readonly rateLimits: RateLimitService,
  ) {}

  keysFor(email: string, ip: string): ThrottleKeys {
    // The key is only a counter's name; control characters (NUL, which PostgreSQL cannot store) are
    // replaced, as no real address has any.
    const account = replaceControlCharacters(emailKey(email)).slice(0, 254);
    return { account: `account:${account}`, ip: this.ipKey(ip) };
  }

  /** The sign-in counter of a client address: an IPv6 address by its /64 (addressKey). */
  ipKey(ip: string): string {
    return `ip:${addressKey(ip)}`;
  }

  /**
   * Takes one slot on `counter` (the account's or a device's) and on `ip` for an attempt about to
   * check a password, or refuses it when either counter is full.
   */
  async reserve(counter: string, ip: string, now: number): Promise<Reservation> {
    const redis = this.rateLimits.redis;
    if (redis) {
      try {
        const [wait, , ipStart] = await redis.script<[number, number, number]>('signInReserve', RESERVE_SCRIPT, [signInKey(counter), signInKey(ip)], [
          now,
          this.windowMs,
          this.auth.signInMaxFailures,
          this.auth.signInMaxFailuresPerIp,
        ]);
        if (Number(wait) > 0) return { allowed: false, retryAfterSeconds: toSeconds(Number(wait)) };
        return { allowed: true, counter, ip, ipWindowStart: Number(ipStart), store: 'redis' };
      } catch (error) {
        this.warn(error);
      }
    }
    return this.reserveInDatabase(counter, ip, now);
  }

  /**
   * The attempt's password was right: its account's (or device's) counter starts again, as before; the
   * IP keeps its failures and gets this attempt's slot back.
   */
  async succeeded(reservation: Extract<Reservation, { allowed: true }>): Promise<void> {
    const redis = this.rateLimits.redis;
    if (reservation.store === 'redis' && redis) {
      try {
        await redis.script('signInSucceeded', SUCCEEDED_SCRIPT, [signInKey(reservation.counter), signInKey(reservation.ip)], [String(reservation.ipWindowStart)]);
        return;
      } catch (error) {
        // The failures stay counted until their window ends: nothing is let through by this.
        this.warn(error);
        return;
      }
    }
    await this.counters.reset(reservation.counter);
    await this.counters.giveBack([{ key: reservation.ip, start: reservation.ipWindowStart }]);
  }

  /**
   * One counter alone, under the same limit and window as sign-ins: the device flow's user-code guesses
   * per IP (RFC 8628 §5.1; SECURITY.md, "Guessing user codes"). A slot is taken before the code is
   * looked up, atomically on every instance; a code that was right gives it back (`release`), a wrong
   * one keeps it. Past the limit the guess is refused unchecked. `limits` sets another budget on the
   * same counters (the mail budgets of README.md, Your account: mails an hour per address and per IP).
   */
  async reserveOne(key: string, now: number, limits: { max: number; windowMs: number } = { max: this.auth.signInMaxFailures, windowMs: this.windowMs }): Promise<SingleReservation> {
    const redis = this.rateLimits.redis;
    if (redis) {
      try {
        const [wait, start] = await redis.script<[number, number]>('signInReserve', RESERVE_SCRIPT, [signInKey(key)], [now, limits.windowMs, limits.max]);
        if (Number(wait) > 0) return { allowed: false, retryAfterSeconds: toSeconds(Number(wait)) };
        return { allowed: true, key, windowStart: Number(start), store: 'redis' };
      } catch (error) {
        this.warn(error);
      }
    }
    const [{ failures, start }] = await this.counters.count([key], now, now - limits.windowMs);
    const reservation: SingleReservation = { allowed: true, key, windowStart: start, store: 'database' };
    if (failures > limits.max) {
      await this.release(reservation);
      return { allowed: false, retryAfterSeconds: toSeconds(start + limits.windowMs - now) };
    }
    return reservation;
  }

  /**
   * The counter of a reservation taken is made full for the rest of its window, and how long that is:
   * a wrong user code while the budget of all addresses is spent leaves its address no more guesses in
   * this window (SECURITY.md, "Guessing user codes").
   */
  async fill(reservation: Extract<SingleReservation, { allowed: true }>, now: number): Promise<number> {
    const limit = this.auth.signInMaxFailures;
    const redis = this.rateLimits.redis;
    if (reservation.store === 'redis' && redis) {
      try {
        await redis.script('signInFill', FILL_SCRIPT, [signInKey(reservation.key)], [String(reservation.windowStart), limit]);
      } catch (error) {
        this.warn(error);
      }
    } else {
      await this.counters.fill(reservation.key, reservation.windowStart, limit);
    }
    return toSeconds(reservation.windowStart + this.windowMs - now);
  }

  /** The guess was right (or refused unchecked): its slot goes back, within the window it was taken in. */
  async release(reservation: Extract<SingleReservation, { allowed: true }>): Promise<void> {
    const redis = this.rateLimits.redis;
    if (reservation.store === 'redis' && redis) {
      try {
        await redis.script('signInRelease', RELEASE_SCRIPT, [signInKey(reservation.key)], [String(reservation.windowStart)]);
      } catch (error) {
        this.warn(error);
      }
      return;
    }
    await this.counters.giveBack([{ key: reservation.key, start: reservation.windowStart }]);
  }

  private async reserveInDatabase(counter: string, ip: string, now: number): Promise<Reservation> {
    // Both counters in one atomic upsert, rows in key order (SignInThrottlesRepository.count).
    const counted = await this.counters.count([counter, ip].sort(), now, now - this.windowMs);
    const full = counted.filter((row) => row.failures > (row.key === ip ? this.auth.signInMaxFailuresPerIp : this.auth.signInMaxFailures));
    if (full.length > 0) {
      // Refused unchecked: the slots go back, so the counts stay the failed checks (and checks under way).
      await this.counters.giveBack(counted);
      return { allowed: false, retryAfterSeconds: toSeconds(Math.max(...full.map((row) => row.start + this.windowMs - now))) };
    }
    const ipStart = counted.find((row) => row.key === ip)!.start;
    return { allowed: true, counter, ip, ipWindowStart: ipStart, store: 'database' };
  }

  private get windowMs(): number {
    return this.auth.signInWindowSeconds * 1000;
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastRedisWarning < 10_000) return;
    this.lastRedisWarning = now;
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn(`Redis unavailable for the sign-in throttle, counting in the database: ${message}`);
  }
}

/** Under REDIS_KEY_PREFIX, apart from the rate limiter's `rl:` counters. */
function signInKey(key: string): string {
  return `signin:${key}`;
}

/** Whole seconds for Retry-After (RFC 9110 §10.2.3), at least 1. */
function toSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import type { FastifyReply } from 'fastify';
import { rateLimitConfig } from '../config/configuration';
import { MetricsService, RateLimitTier } from '../metrics/metrics.service';
import { MemoryRateLimitStore } from './memory-rate-limit.store';
import { rateLimitedError, setRateLimitHeaders } from './rate-limit.headers';
import { RATE_LIMIT_WINDOW_MS, RateLimitResult } from './rate-limit.types';
import { RedisRateLimitStore } from './redis-rate-limit.store';

/** The per-minute limits of docs/using-the-api.md, as configured. */
export interface RateLimits {
  anonymous: number;
  standard: number;
  partner: number;
  client: number;
}

/**
 * Counts requests per caller in fixed one-minute windows. With REDIS_URL the counters live in Redis and
 * are shared by every instance (one atomic round trip per request); otherwise, and while Redis cannot be
 * reached, in this process's memory. Falling back keeps every instance limiting on its own instead of
 * refusing traffic or letting it through unlimited when Redis is down.
 *
 * Why not `@nestjs/throttler` (with `@nest-lab/throttler-storage-redis`): its guard picks the counter
 * before authentication, from the request alone, while the contract charges a Bearer call to the
 * token's client, a keyed call to the key's tier and anything else to the IP, decided only once the
 * credentials are checked, and charges failed credentials too (the auth module's RateLimitGuard calls
 * `enforce` at that point, between authentication and the answer). Its Redis storage has no memory fallback: while Redis is unreachable its increments fail,
 * and so would the requests, instead of being limited per instance. And the OAuth endpoints charge per
 * client after client authentication, inside the handler. So the limiter is this service, called where
 * the caller is known.
 */
@Injectable()
export class RateLimitService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly memory = new MemoryRateLimitStore();
  /** The Redis of REDIS_URL (none without it), also used by the sign-in throttle. */
  readonly redis?: RedisRateLimitStore;
  private lastRedisWarning = 0;
  readonly limits: RateLimits;

  constructor(
    @Inject(rateLimitConfig.KEY) config: ConfigType<typeof rateLimitConfig>,
    private readonly metrics: MetricsService,
  ) {
    this.limits = { anonymous: config.anonymous, standard: config.standard, partner: config.partner, client: config.client };
    if (config.redisUrl) this.redis = new RedisRateLimitStore(config.redisUrl, config.redisKeyPrefix);
  }

  async onModuleInit(): Promise<void> {
    // Connect before the first request, so that a healthy Redis counts from the first hit on.
    await this.redis?.connect().catch((error: unknown) => this.warn(error));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.memory.close(), this.redis?.close()]);
  }

  /** Counts one request of `key` (or `requests`: each message of a batch) against `limit` requests a minute. */
  async consume(key: string, limit: number, requests = 1): Promise<RateLimitResult> {
    let hit: { count: number; msLeft: number };
    if (this.redis) {
      try {
        hit = await this.redis.hit(key, RATE_LIMIT_WINDOW_MS, requests);
      } catch (error) {
        this.warn(error);
        hit = await this.memory.hit(key, RATE_LIMIT_WINDOW_MS, requests);
      }
    } else {
      hit = this.memory.hitNow(key, RATE_LIMIT_WINDOW_MS, requests);
    }
    return resultOf(hit, limit);
  }

  /**
   * Counts the request, sets the RateLimit headers on the reply and throws 429 `RATE_LIMITED` (with
   * `Retry-After`) when it is over the limit. Returns the result otherwise. Without Redis the counter is
   * in this process and the answer comes at once, not as a promise: the access guards run on every API
   * request, and a promise (with its turn of the microtask queue) would be the only thing they wait for.
   */
  enforce(reply: FastifyReply, key: string, limit: number, requests = 1): RateLimitResult | Promise<RateLimitResult> {
    if (!this.redis) return this.settle(reply, key, resultOf(this.memory.hitNow(key, RATE_LIMIT_WINDOW_MS, requests), limit));
    return this.consume(key, limit, requests).then((result) => this.settle(reply, key, result));
  }

  private settle(reply: FastifyReply, key: string, result: RateLimitResult): RateLimitResult {
    const { limit } = result;
    setRateLimitHeaders(reply, result);
    if (!result.allowed) {
      this.metrics.rateLimited(this.tierOf(key, limit));
      throw rateLimitedError(result);
    }
    return result;
  }

  /**
   * The tier a counter belongs to, from its name (RateLimitKeys) and, for an API key, from the limit
   * applied to it. With equal standard and partner limits the tiers cannot be told apart and count as standard.
   */
  private tierOf(key: string, limit: number): RateLimitTier {
    if (key.startsWith('client:')) return 'client';
    if (key.startsWith('key:')) return limit === this.limits.partner && limit !== this.limits.standard ? 'partner' : 'standard';
    return 'anonymous';
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastRedisWarning < 10_000) return;
    this.lastRedisWarning = now;
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn(`Redis unavailable for rate limiting, counting in memory: ${message}`);
  }
}

function resultOf(hit: { count: number; msLeft: number }, limit: number): RateLimitResult {
  return {
    limit,
    remaining: Math.max(0, limit - hit.count),
    resetSeconds: Math.max(1, Math.ceil(hit.msLeft / 1000)),
    allowed: hit.count <= limit,
  };
}

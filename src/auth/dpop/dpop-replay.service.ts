import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { RateLimitService } from '../../rate-limit/rate-limit.service';
import { DpopProofsRepository } from './dpop-proofs.repository';

/** SET NX PX in one round trip: 1 when this call stored the key (first use), 0 when it was there. */
const ONCE_SCRIPT = `
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return 1 end
return 0
`;

/**
 * RFC 9449 §11.1: a DPoP proof is accepted once. Its `jti` (per key) is remembered until the proof could
 * no longer be accepted anyway, on every instance: in Redis when REDIS_URL is set (the rate limiter's
 * connection, under REDIS_KEY_PREFIX), else, and while Redis cannot be reached, in the database table
 * `dpop_proofs` (purged by tokens:purge). See SECURITY.md, "DPoP proof replay".
 */
@Injectable()
export class DpopReplayService {
  private readonly logger = new Logger('DpopReplay');
  private lastRedisWarning = 0;

  constructor(
    private readonly proofs: DpopProofsRepository,
    private readonly rateLimits: RateLimitService,
  ) {}

  /** True the first time this key's `jti` is presented before `until` (epoch ms); false for a replay. */
  async firstUse(jkt: string, jti: string, until: number, now: number): Promise<boolean> {
    // The thumbprint scopes the jti to its key (RFC 9449 §11.1); hashing keeps client strings out of storage.
    const proofHash = createHash('sha256').update(`${jkt} ${jti}`).digest('hex');
    const ttl = Math.max(1000, until - now + 1000);
    const redis = this.rateLimits.redis;
    if (redis) {
      try {
        return Number(await redis.script<number>('dpopOnce', ONCE_SCRIPT, [`dpop:${proofHash}`], [ttl])) === 1;
      } catch (error) {
        this.warn(error);
      }
    }
    // A new row, or a row whose proof expired and was not purged yet, is claimed; a live row is a replay.
    return this.proofs.claim(proofHash, now + ttl, now);
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastRedisWarning < 10_000) return;
    this.lastRedisWarning = now;
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn(`Redis unavailable for DPoP replay checks, using the database: ${message}`);
  }
}

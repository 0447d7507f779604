import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { authConfig } from '../config/configuration';
import { AccessTokenGrant } from './principal';

/** Entries kept at most; the oldest go first. A grant is a few hundred bytes. */
export const TOKEN_CACHE_MAX_ENTRIES = 10_000;

interface Entry {
  grant: AccessTokenGrant;
  /** When this entry stops being served: its load time plus TOKEN_CACHE_TTL_MS, or the token's expiry. */
  until: number;
}

/**
 * What valid access tokens grant, remembered for TOKEN_CACHE_TTL_MS (0: off) so that a client calling
 * the API many times a second does not cost a query each time. Keyed by the token's SHA-256, like the
 * table; only valid tokens are kept, so a token issued a moment ago on another instance is never
 * refused because of an earlier miss.
 *
 * Revocation: whatever this instance revokes (RFC 7009 revocation, a replayed refresh token or code
 * revoking its grant, a password or address set: WaysInService) empties the cache after its transaction
 * and before the revocation is answered, so here it takes effect at
 * once. A revocation made elsewhere (another instance, the CLI deleting a client) takes effect here
 * within TOKEN_CACHE_TTL_MS. Expiry is checked on every hit.
 */
@Injectable()
export class AccessTokenCache {
  private readonly entries = new Map<string, Entry>();
  private generationCounter = 0;
  readonly ttlMs: number;

  constructor(@Inject(authConfig.KEY) auth: ConfigType<typeof authConfig>) {
    this.ttlMs = auth.tokenCacheTtlMs;
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Changes whenever the cache is emptied: a load that began before cannot store its (older) answer. */
  get generation(): number {
    return this.generationCounter;
  }

  get(tokenHash: string, now: number): AccessTokenGrant | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.grant;
  }

  /** Remembers a valid token's grant, unless the cache was emptied since `generation` was read. */
  set(tokenHash: string, grant: AccessTokenGrant, generation: number, now: number): void {
    if (!this.enabled || generation !== this.generationCounter) return;
    if (this.entries.size >= TOKEN_CACHE_MAX_ENTRIES) {
      // Map keeps insertion order: the first key is the oldest entry.
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(tokenHash, { grant, until: Math.min(now + this.ttlMs, grant.expiresAt) });
  }

  /** Forgets every grant: called after this instance revoked tokens, before it answers. */
  revoked(): void {
    this.generationCounter += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

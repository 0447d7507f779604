import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { SECRET_PREFIX, sha256Hex } from '../common/crypto/secrets';
import { AccessTokenCache } from './access-token-cache';
import { AccessTokenGrantsRepository } from './access-token-grants.repository';
import { AccessTokenGrant } from './principal';

/** RFC 6750 §2.1 b64token: the only characters a Bearer token may contain. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const MAX_TOKEN_LENGTH = 512;

/** Whether a string can be one of this server's access tokens at all, checked before any query. */
export function isWellFormedAccessToken(token: string): boolean {
  return token.length <= MAX_TOKEN_LENGTH && token.startsWith(SECRET_PREFIX.accessToken) && B64TOKEN.test(token);
}

/**
 * Finds what an access token grants. Tokens are stored only as SHA-256 hashes (SECURITY.md), so the
 * lookup is one equality match on the unique `token_hash` index (AccessTokenGrantsRepository, a prepared
 * statement): no constant-time comparison is needed, since the database never sees the token and the
 * hash of a 256-bit secret reveals nothing usable. A string that cannot be a token costs no query; a
 * grant found is cached for TOKEN_CACHE_TTL_MS.
 */
@Injectable()
export class AccessTokenLookupService {
  constructor(
    private readonly grants: AccessTokenGrantsRepository,
    private readonly cache: AccessTokenCache,
    private readonly clock: Clock,
  ) {}

  /** The grant of a usable token, or null for a malformed, unknown, expired or revoked one. */
  async find(token: string, now = this.clock.now()): Promise<AccessTokenGrant | null> {
    if (!isWellFormedAccessToken(token)) return null;
    const tokenHash = sha256Hex(token);
    const cached = this.cache.get(tokenHash, now);
    if (cached) return cached;
    const generation = this.cache.generation;
    const grant = await this.grants.findLive(tokenHash, now);
    if (!grant) return null;
    this.cache.set(tokenHash, grant, generation, now);
    return grant;
  }
}

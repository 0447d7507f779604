import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { SECRET_PREFIX, sha256Hex } from '../common/crypto/secrets';
import { PreparedQuery, preparedQuery } from '../database/prepared-query';
import { AccessTokenCache } from './access-token-cache';
import { AccessTokenGrant } from './principal';

/** RFC 6750 §2.1 b64token: the only characters a Bearer token may contain. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const MAX_TOKEN_LENGTH = 512;

interface Row {
  token_id: number | string;
  user_id: number | string | null;
  client_id: number | string;
  scope: string | null;
  expires_at: number | string;
  jkt: string | null;
}

/** Whether a string can be one of this server's access tokens at all, checked before any query. */
export function isWellFormedAccessToken(token: string): boolean {
  return token.length <= MAX_TOKEN_LENGTH && token.startsWith(SECRET_PREFIX.accessToken) && B64TOKEN.test(token);
}

/**
 * Finds what an access token grants. Tokens are stored only as SHA-256 hashes (SECURITY.md), so the
 * lookup is one equality match on the unique `token_hash` index: no constant-time comparison is needed,
 * since the database never sees the token and the hash of a 256-bit secret reveals nothing usable.
 *
 * One raw query on the hot path of every Bearer request, not the ORM's entity path: a prepared statement
 * (src/database/prepared-query.ts) skips the ORM's per-query work on every API call. It is the one read of
 * `oauth_access_tokens` outside TokensRepository (src/oauth/token/tokens.repository.ts), because auth/ is
 * what oauth/ builds on and must not import it back. Expired and revoked tokens never match. Deleting a client deletes its tokens (ON DELETE CASCADE); the join on the client
 * makes that hold even where the cascade could not run.
 */
@Injectable()
export class AccessTokenLookupService {
  private readonly lookup: PreparedQuery<Row>;

  constructor(
    dataSource: DataSource,
    private readonly cache: AccessTokenCache,
    private readonly clock: Clock,
  ) {
    this.lookup = preparedQuery<Row>(
      dataSource,
      'sp_access_token_lookup',
      'SELECT t.id AS token_id, t.user_id, t.client_id, t.scope, t.expires_at, t.jkt ' +
        'FROM oauth_access_tokens t JOIN oauth_clients c ON c.id = t.client_id ' +
        'WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2',
    );
  }

  /** The grant of a usable token, or null for a malformed, unknown, expired or revoked one. */
  async find(token: string, now = this.clock.now()): Promise<AccessTokenGrant | null> {
    if (!isWellFormedAccessToken(token)) return null;
    const tokenHash = sha256Hex(token);
    const cached = this.cache.get(tokenHash, now);
    if (cached) return cached;
    const generation = this.cache.generation;
    const [row] = await this.lookup.all(tokenHash, now);
    if (!row) return null;
    const grant: AccessTokenGrant = {
      tokenId: Number(row.token_id),
      userId: row.user_id === null ? null : Number(row.user_id),
      clientId: Number(row.client_id),
      scopes: row.scope ? row.scope.split(' ').filter(Boolean) : [],
      expiresAt: Number(row.expires_at),
      jkt: row.jkt ?? null,
    };
    this.cache.set(tokenHash, grant, generation, now);
    return grant;
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sha256Hex } from '../../common/crypto/secrets';
import { scopeList } from '../../database/columns';
import { PreparedQuery, preparedQuery } from '../../database/prepared-query';
import { statements } from '../../database/transaction';
import { AccessToken } from '../entities/access-token.entity';
import { RefreshToken } from '../entities/refresh-token.entity';

export type FoundToken = { type: 'access_token'; row: AccessToken } | { type: 'refresh_token'; row: RefreshToken };

type Numeric = number | string;
/** The columns every token row has, access or refresh. */
interface TokenRow {
  id: Numeric;
  token_hash: string;
  client_id: Numeric;
  /** Null only for an access token of the client-credentials grant. */
  user_id: Numeric | null;
  scope: string | null;
  family_id: string;
  expires_at: Numeric;
  revoked_at: Numeric | null;
  created_at: Numeric;
  jkt: string | null;
}
interface AccessRow extends TokenRow {
  refresh_token_id: Numeric | null;
}
interface RefreshRow extends TokenRow {
  authorization_code_id: Numeric | null;
  rotated_at: Numeric | null;
}

const orNull = (value: Numeric | null): number | null => (value === null ? null : Number(value));

/** The shared columns of a token row, as the entities name and type them. */
function tokenFields(row: TokenRow) {
  return {
    id: Number(row.id),
    tokenHash: row.token_hash,
    clientId: Number(row.client_id),
    userId: orNull(row.user_id),
    scope: scopeList.from(row.scope) as string[],
    familyId: row.family_id,
    expiresAt: Number(row.expires_at),
    revokedAt: orNull(row.revoked_at),
    createdAt: Number(row.created_at),
    jkt: row.jkt ?? null,
  };
}

/**
 * Finds a presented token by its hash. RFC 7009 §2.1 / RFC 7662 §2.1: `token_type_hint` only decides
 * which table is searched first; a wrong or unknown hint never hides a token.
 *
 * Introspection, revocation and every refresh read a token here, so each table is read through one
 * prepared statement rather than the ORM's query builder, and the row is mapped to its entity by hand.
 */
@Injectable()
export class TokenLookup {
  private readonly accessByHash: PreparedQuery<AccessRow>;
  private readonly refreshByHash: PreparedQuery<RefreshRow>;

  constructor(private readonly dataSource: DataSource) {
    this.accessByHash = preparedQuery(
      dataSource,
      'sp_access_token_by_hash',
      'SELECT id, token_hash, client_id, user_id, scope, family_id, refresh_token_id, expires_at, revoked_at, created_at, jkt FROM oauth_access_tokens WHERE token_hash = $1',
    );
    this.refreshByHash = preparedQuery(
      dataSource,
      'sp_refresh_token_by_hash',
      'SELECT id, token_hash, client_id, user_id, scope, family_id, authorization_code_id, expires_at, rotated_at, revoked_at, created_at, jkt FROM oauth_refresh_tokens WHERE token_hash = $1',
    );
  }

  async find(token: string, hint: string | undefined): Promise<FoundToken | null> {
    const tokenHash = sha256Hex(token);
    const order: Array<FoundToken['type']> = hint === 'refresh_token' ? ['refresh_token', 'access_token'] : ['access_token', 'refresh_token'];
    for (const type of order) {
      if (type === 'access_token') {
        const row = await this.accessToken(tokenHash);
        if (row) return { type, row };
      } else {
        const row = await this.refreshToken(tokenHash);
        if (row) return { type, row };
      }
    }
    return null;
  }

  /** The access token stored under this hash, whatever its state. */
  async accessToken(tokenHash: string): Promise<AccessToken | null> {
    const [row] = await this.accessByHash.all(tokenHash);
    if (!row) return null;
    return Object.assign(new AccessToken(), tokenFields(row), { refreshTokenId: orNull(row.refresh_token_id) });
  }

  /** The refresh token stored under this hash, whatever its state. */
  async refreshToken(tokenHash: string): Promise<RefreshToken | null> {
    const [row] = await this.refreshByHash.all(tokenHash);
    if (!row) return null;
    return Object.assign(new RefreshToken(), tokenFields(row), {
      // Every refresh token has a user: only the authorization-code grant issues them.
      userId: Number(row.user_id),
      authorizationCodeId: orNull(row.authorization_code_id),
      rotatedAt: orNull(row.rotated_at),
    });
  }

  /** When the user signed in for this refresh token's grant (epoch ms), for its ID tokens; null when unknown. */
  async refreshAuthTime(id: number): Promise<number | null> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<{ auth_time: number | string | null }>(`SELECT auth_time FROM oauth_refresh_tokens WHERE id = ${sql.p(1)}`, [id]);
    return orNull(rows[0]?.auth_time ?? null);
  }
}

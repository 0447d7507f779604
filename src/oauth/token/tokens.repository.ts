import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, LessThanOrEqual, Repository } from 'typeorm';
import { generateSecret, SECRET_PREFIX, sha256Hex } from '../../common/crypto/secrets';
import { formatScope } from '../../common/scopes';
import { scopeList } from '../../database/columns';
import { PreparedQuery, preparedQuery } from '../../database/prepared-query';
import { Tx } from '../../database/transaction';
import { AccessToken } from '../entities/access-token.entity';
import { RefreshToken } from '../entities/refresh-token.entity';

export interface IssueTokens {
  clientId: number;
  userId: number;
  /** The scope of the grant, kept by the refresh token (RFC 6749 §6: identical on rotation). */
  grantScope: string[];
  /** The access token's scope: the grant's, or narrower on a refresh (RFC 6749 §6). */
  accessScope: string[];
  familyId: string;
  authorizationCodeId: number | null;
  /** When the user signed in (epoch ms), kept for the ID tokens of later refreshes. */
  authTime: number | null;
  /** RFC 8176: how the user signed in, kept like authTime for the ID tokens of later refreshes. */
  amr: string[] | null;
  /** OIDC Core §2: the authentication context class the grant's sign-in met, kept like amr. */
  acr: string | null;
  now: number;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** RFC 9449 §6: the DPoP key thumbprint the access token is bound to; null for a Bearer token. */
  accessJkt: string | null;
  /** RFC 9449 §5: the key the refresh token is bound to (public clients only); null otherwise. */
  refreshJkt: string | null;
  /** RFC 8707: the resource the grant was asked for, kept by the refresh token; null: the public API. */
  grantResource: string | null;
  /** RFC 8707: the access token's audience (ProtectedResources); null: the public API. */
  accessResource: string | null;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
}

export interface IssueClientToken {
  clientId: number;
  scope: string[];
  now: number;
  accessTtlSeconds: number;
  /** RFC 9449 §6: the DPoP key thumbprint the token is bound to; null for a Bearer token. */
  jkt: string | null;
  /** RFC 8707: the token's audience. */
  resource: string;
}

export type FoundToken = { type: 'access_token'; row: AccessToken } | { type: 'refresh_token'; row: RefreshToken };

export function newFamilyId(): string {
  return randomUUID();
}

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
  resource: string | null;
}
interface AccessRow extends TokenRow {
  refresh_token_id: Numeric | null;
}
interface RefreshRow extends TokenRow {
  authorization_code_id: Numeric | null;
  rotated_at: Numeric | null;
  auth_time: Numeric | null;
  amr: string | null;
  acr: string | null;
}

const orNull = (value: Numeric | null): number | null => (value === null ? null : Number(value));

const REFRESH_COLUMNS = 'id, token_hash, client_id, user_id, scope, family_id, authorization_code_id, expires_at, rotated_at, revoked_at, created_at, auth_time, amr, acr, jkt, resource';

/** A refresh token's row as the entity names and types it. */
function refreshTokenOf(row: RefreshRow): RefreshToken {
  return Object.assign(new RefreshToken(), tokenFields(row), {
    userId: Number(row.user_id),
    authorizationCodeId: orNull(row.authorization_code_id),
    rotatedAt: orNull(row.rotated_at),
    authTime: orNull(row.auth_time),
    amr: row.amr ? row.amr.split(' ').filter(Boolean) : null,
    acr: row.acr,
  });
}

/** The shared columns of a token row, as the entities name and type them. */
function tokenFields(row: TokenRow) {
  return {
    id: Number(row.id),
    tokenHash: row.token_hash,
    clientId: Number(row.client_id),
    scope: scopeList.from(row.scope) as string[],
    familyId: row.family_id,
    expiresAt: Number(row.expires_at),
    revokedAt: orNull(row.revoked_at),
    createdAt: Number(row.created_at),
    jkt: row.jkt ?? null,
    resource: row.resource ?? null,
  };
}

/**
 * The access and refresh tokens (`oauth_access_tokens`, `oauth_refresh_tokens`): one aggregate, since
 * every access token of a user is issued beside a refresh token of its family and every revocation
 * takes them together.
 *
 * Where the SQL is hand-written, and why:
 * - Reads by hash (introspection, revocation, every refresh) are prepared statements, not the ORM's
 *   entity path: they run on every token request (see src/database/prepared-query.ts).
 * - The methods that take a `Tx` run inside a grant's transaction (src/database/transaction.ts), whose
 *   statements are prepared once per text on SQLite and grouped per event-loop turn. Rotation and the
 *   grace-period claim are single conditional UPDATEs whose affected-row count decides a race between
 *   concurrent requests on any instance (RFC 9700 §4.14.2): they must stay one statement each.
 * - Everything else (purge, revoking one access token) uses the ORM's repository API.
 */
@Injectable()
export class TokensRepository {
  private readonly accessByHash: PreparedQuery<AccessRow>;
  private readonly refreshByHash: PreparedQuery<RefreshRow>;

  constructor(
    dataSource: DataSource,
    @InjectRepository(AccessToken) private readonly accessTokens: Repository<AccessToken>,
    @InjectRepository(RefreshToken) private readonly refreshTokens: Repository<RefreshToken>,
  ) {
    this.accessByHash = preparedQuery(
      dataSource,
      'sp_access_token_by_hash',
      'SELECT id, token_hash, client_id, user_id, scope, family_id, refresh_token_id, expires_at, revoked_at, created_at, jkt, resource FROM oauth_access_tokens WHERE token_hash = $1',
    );
    this.refreshByHash = preparedQuery(
      dataSource,
      'sp_refresh_token_by_hash',
      `SELECT ${REFRESH_COLUMNS} FROM oauth_refresh_tokens WHERE token_hash = $1`,
    );
  }

  /**
   * A presented token, by its hash. RFC 7009 §2.1 / RFC 7662 §2.1: `token_type_hint` only decides which
   * table is searched first; a wrong or unknown hint never hides a token.
   */
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
    return Object.assign(new AccessToken(), tokenFields(row), { userId: orNull(row.user_id), refreshTokenId: orNull(row.refresh_token_id) });
  }

  /** The refresh token stored under this hash, whatever its state. */
  async refreshToken(tokenHash: string): Promise<RefreshToken | null> {
    const [row] = await this.refreshByHash.all(tokenHash);
    return row ? refreshTokenOf(row) : null;
  }

  /**
   * The refresh of a live token in one statement (RFC 9700 §4.14.2): the token under this hash, issued
   * to this client, unexpired, neither rotated nor revoked, is retired and returned as it was stored;
   * otherwise nothing changes and the answer is null (unknown, another client's, expired, already rotated
   * or revoked: the caller then reads the token to tell which). Run inside the grant's transaction: the
   * checks that need the row (DPoP key, resource, scope) come after it, and a refusal rolls the rotation
   * back with the transaction, so a refused request still changes nothing. Of concurrent refreshes with
   * one token, on any instance, exactly one updates the row, as with `rotate`.
   */
  async rotateLive(tx: Tx, tokenHash: string, clientId: number, now: number): Promise<RefreshToken | null> {
    const { p } = tx;
    const { rows } = await tx.run<RefreshRow>(
      `UPDATE oauth_refresh_tokens SET rotated_at = ${p(1)}
       WHERE token_hash = ${p(2)} AND client_id = ${p(3)} AND rotated_at IS NULL AND revoked_at IS NULL AND expires_at > ${p(4)}
       RETURNING ${REFRESH_COLUMNS}`,
      [now, tokenHash, clientId, now],
    );
    return rows[0] ? refreshTokenOf(rows[0]) : null;
  }

  /**
   * The writes of a grant, inside the caller's transaction: one refresh token and one access token
   * linked to it, both 256 random bits stored only as SHA-256 (docs/integrate-with-oauth.md, "Tokens").
   */
  async issue(tx: Tx, grant: IssueTokens): Promise<IssuedTokens> {
    const { p } = tx;
    const refreshToken = generateSecret(SECRET_PREFIX.refreshToken, 32);
    const accessToken = generateSecret(SECRET_PREFIX.accessToken, 32);
    const inserted = await tx.run<{ id: number | string }>(
      `INSERT INTO oauth_refresh_tokens (token_hash, client_id, user_id, scope, family_id, authorization_code_id, expires_at, created_at, auth_time, jkt, amr, acr, resource)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}, ${p(10)}, ${p(11)}, ${p(12)}, ${p(13)}) RETURNING id`,
      [
        sha256Hex(refreshToken),
        grant.clientId,
        grant.userId,
        formatScope(grant.grantScope),
        grant.familyId,
        grant.authorizationCodeId,
        grant.now + grant.refreshTtlSeconds * 1000,
        grant.now,
        grant.authTime,
        grant.refreshJkt,
        grant.amr && grant.amr.length > 0 ? grant.amr.join(' ') : null,
        grant.acr,
        grant.grantResource,
      ],
    );
    await this.insertAccessToken(tx, accessToken, {
      clientId: grant.clientId,
      userId: grant.userId,
      scope: grant.accessScope,
      familyId: grant.familyId,
      refreshTokenId: Number(inserted.rows[0].id),
      expiresAt: grant.now + grant.accessTtlSeconds * 1000,
      createdAt: grant.now,
      jkt: grant.accessJkt,
      resource: grant.accessResource,
    });
    return { accessToken, refreshToken };
  }

  /**
   * The write of a client-credentials grant (RFC 6749 §4.4.3): one access token with no user and no
   * refresh token, in a family of its own so that every revocation path treats it like any other token.
   */
  async issueClientToken(tx: Tx, grant: IssueClientToken): Promise<string> {
    const accessToken = generateSecret(SECRET_PREFIX.accessToken, 32);
    await this.insertAccessToken(tx, accessToken, {
      clientId: grant.clientId,
      userId: null,
      scope: grant.scope,
      familyId: newFamilyId(),
      refreshTokenId: null,
      expiresAt: grant.now + grant.accessTtlSeconds * 1000,
      createdAt: grant.now,
      jkt: grant.jkt,
      resource: grant.resource,
    });
    return accessToken;
  }

  private async insertAccessToken(tx: Tx, token: string, row: Omit<AccessToken, 'id' | 'tokenHash' | 'revokedAt'>): Promise<void> {
    const { p } = tx;
    await tx.run(
      `INSERT INTO oauth_access_tokens (token_hash, client_id, user_id, scope, family_id, refresh_token_id, expires_at, created_at, jkt, resource)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}, ${p(10)})`,
      [sha256Hex(token), row.clientId, row.userId, formatScope(row.scope), row.familyId, row.refreshTokenId, row.expiresAt, row.createdAt, row.jkt, row.resource],
    );
  }

  /**
   * Retires a refresh token that is used now, if it is still live. The single use is decided here: of
   * concurrent refreshes with one token, on any instance, exactly one updates the row (true); the others
   * find it rotated or revoked (false).
   */
  async rotate(tx: Tx, id: number, now: number): Promise<boolean> {
    const retired = await tx.run(
      `UPDATE oauth_refresh_tokens SET rotated_at = ${tx.p(1)} WHERE id = ${tx.p(2)} AND rotated_at IS NULL AND revoked_at IS NULL`,
      [now, id],
    );
    return retired.affected === 1;
  }

  /**
   * REFRESH_TOKEN_GRACE_PERIOD (docs/integrate-with-oauth.md, SECURITY.md): whether a refresh token that
   * was already rotated may be presented again for a new pair. Only the token rotated most recently in its
   * family qualifies, while it is unrevoked, unexpired and rotated at or after `rotatedSince`; any older
   * one is a replay.
   *
   * On PostgreSQL the family is locked first (see lockFamilies): a rotation of the token's successor, a
   * revocation or another grace-period use of the same token, committing at the same moment, has then
   * either finished (and this claim, or revokeLivePair after it, sees what it wrote) or waits for this
   * grant. One conditional UPDATE then decides; it changes no value (rotated_at is set to itself).
   */
  async claimGraceReuse(tx: Tx, token: { id: number; familyId: string }, rotatedSince: number, now: number): Promise<boolean> {
    const { p } = tx;
    await lockFamilies(tx, p(1), [token.familyId]);
    const claimed = await tx.run(
      `UPDATE oauth_refresh_tokens SET rotated_at = rotated_at
       WHERE id = ${p(1)} AND revoked_at IS NULL AND expires_at > ${p(2)} AND rotated_at >= ${p(3)}
         AND NOT EXISTS (
           SELECT 1 FROM oauth_refresh_tokens later
           WHERE later.family_id = ${p(4)} AND later.id <> ${p(5)} AND later.rotated_at >= oauth_refresh_tokens.rotated_at
         )`,
      [token.id, now, rotatedSince, token.familyId, token.id],
    );
    return claimed.affected === 1;
  }

  /**
   * A grace-period use replaces the pair handed out before for its token: the family's live refresh token
   * (the token's successor; a family never holds more than one) and the access tokens issued with it are
   * revoked before the new pair is inserted, so the family still holds exactly one live refresh token. A
   * thief replaying inside the window thus gets a chain that the next legitimate refresh (which presents
   * the replaced token: the family goes) or the next grace-period use (which replaces it) ends.
   */
  async revokeLivePair(tx: Tx, familyId: string, now: number): Promise<void> {
    const { p } = tx;
    const live = `SELECT id FROM oauth_refresh_tokens WHERE family_id = ${p(2)} AND revoked_at IS NULL AND rotated_at IS NULL`;
    await tx.run(`UPDATE oauth_access_tokens SET revoked_at = ${p(1)} WHERE revoked_at IS NULL AND refresh_token_id IN (${live})`, [now, familyId]);
    await tx.run(`UPDATE oauth_refresh_tokens SET revoked_at = ${p(1)} WHERE family_id = ${p(2)} AND revoked_at IS NULL AND rotated_at IS NULL`, [now, familyId]);
  }

  /**
   * Revokes every refresh and access token of one grant lineage (RFC 9700 §4.14.2); resolves with the
   * number of refresh tokens it revoked (0: the family was already revoked).
   */
  async revokeFamily(tx: Tx, familyId: string, now: number): Promise<number> {
    const { p } = tx;
    await lockFamilies(tx, p(1), [familyId]);
    const refresh = await tx.run(`UPDATE oauth_refresh_tokens SET revoked_at = ${p(1)} WHERE family_id = ${p(2)} AND revoked_at IS NULL`, [now, familyId]);
    await tx.run(`UPDATE oauth_access_tokens SET revoked_at = ${p(1)} WHERE family_id = ${p(2)} AND revoked_at IS NULL`, [now, familyId]);
    return refresh.affected;
  }

  /**
   * Every token of one user for one client (Revoke access, README.md "Your account"). Every access token
   * of a user is issued beside a refresh token of its family, so the families of the user's refresh
   * tokens for that client hold them all. On PostgreSQL those families are locked first (see
   * lockFamilies), so a refresh committing at the same moment either finishes before (and its new pair is
   * revoked here) or finds its token revoked.
   */
  async revokeOfUser(tx: Tx, userId: number, clientId: number, now: number): Promise<void> {
    const { p } = tx;
    await lockFamilies(tx, `SELECT family_id FROM oauth_refresh_tokens WHERE user_id = ${p(1)} AND client_id = ${p(2)}`, [userId, clientId]);
    await tx.run(`UPDATE oauth_refresh_tokens SET revoked_at = ${p(1)} WHERE user_id = ${p(2)} AND client_id = ${p(3)} AND revoked_at IS NULL`, [now, userId, clientId]);
    await tx.run(
      `UPDATE oauth_access_tokens SET revoked_at = ${p(1)} WHERE revoked_at IS NULL
         AND family_id IN (SELECT family_id FROM oauth_refresh_tokens WHERE user_id = ${p(2)} AND client_id = ${p(3)})`,
      [now, userId, clientId],
    );
  }

  /**
   * Every token of one user, for every client (a password or address set, SECURITY.md "A stolen session
   * outliving a password reset"): the user's refresh tokens and the access tokens of their families,
   * which hold every access token of a user (see revokeOfUser). Families are locked first on PostgreSQL,
   * so a refresh committing at the same moment either finishes before (and its new pair is revoked here)
   * or finds its token revoked. Consents stay: a connected application asks the user to sign in again.
   */
  async revokeAllOfUser(tx: Tx, userId: number, now: number): Promise<void> {
    const { p } = tx;
    await lockFamilies(tx, `SELECT family_id FROM oauth_refresh_tokens WHERE user_id = ${p(1)}`, [userId]);
    await tx.run(`UPDATE oauth_refresh_tokens SET revoked_at = ${p(1)} WHERE user_id = ${p(2)} AND revoked_at IS NULL`, [now, userId]);
    await tx.run(
      `UPDATE oauth_access_tokens SET revoked_at = ${p(1)} WHERE revoked_at IS NULL
         AND family_id IN (SELECT family_id FROM oauth_refresh_tokens WHERE user_id = ${p(2)})`,
      [now, userId],
    );
  }

  /**
   * RFC 6749 §4.1.2: a code used twice revokes every token issued from it. The refresh token issued for
   * the code keeps its id; its family holds every later token of that grant.
   */
  async revokeIssuedFromCode(tx: Tx, codeId: number, now: number): Promise<void> {
    const { p } = tx;
    const families = `SELECT family_id FROM oauth_refresh_tokens WHERE authorization_code_id = ${p(2)}`;
    await lockFamilies(tx, `SELECT family_id FROM oauth_refresh_tokens WHERE authorization_code_id = ${p(1)}`, [codeId]);
    await tx.run(`UPDATE oauth_access_tokens SET revoked_at = ${p(1)} WHERE revoked_at IS NULL AND family_id IN (${families})`, [now, codeId]);
    await tx.run(`UPDATE oauth_refresh_tokens SET revoked_at = ${p(1)} WHERE revoked_at IS NULL AND family_id IN (${families})`, [now, codeId]);
  }

  /** RFC 7009 §2.1: one access token, alone (its refresh token and family stay). */
  async revokeAccessToken(id: number, now: number): Promise<void> {
    await this.accessTokens.update({ id, revokedAt: IsNull() }, { revokedAt: now });
  }

  /**
   * Deletes the tokens past their expiry; a rotated or revoked refresh token stays until then, because
   * presenting it again must still be recognised as a replay (RFC 9700 §4.14.2). Access tokens first:
   * they point at refresh tokens.
   */
  async purgeExpired(now: number): Promise<{ accessTokens: number; refreshTokens: number }> {
    const accessTokens = await this.accessTokens.delete({ expiresAt: LessThanOrEqual(now) });
    const refreshTokens = await this.refreshTokens.delete({ expiresAt: LessThanOrEqual(now) });
    return { accessTokens: accessTokens.affected ?? 0, refreshTokens: refreshTokens.affected ?? 0 };
  }
}

/**
 * PostgreSQL: waits for every transaction that is writing a token of these families (a rotation, or a
 * grace-period reuse, updates the presented token before it inserts the new pair) and keeps new ones
 * out until this transaction ends. Each later statement of a READ COMMITTED transaction then sees the
 * pairs those grants added, so a revocation cannot miss a token issued at the same moment. SQLite
 * needs nothing: one writer at a time holds the whole database.
 */
async function lockFamilies(tx: Tx, familyIds: string, values: unknown[]): Promise<void> {
  if (tx.p(1) !== '$1') return;
  await tx.run(`SELECT id FROM oauth_refresh_tokens WHERE family_id IN (${familyIds}) FOR UPDATE`, values);
}

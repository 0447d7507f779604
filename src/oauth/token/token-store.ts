import { randomUUID } from 'node:crypto';
import { generateSecret, SECRET_PREFIX, sha256Hex } from '../../common/crypto/secrets';
import { formatScope } from '../../auth/scopes';
import { Tx } from '../../database/transaction';

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
  now: number;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** RFC 9449 §6: the DPoP key thumbprint the access token is bound to; null for a Bearer token. */
  accessJkt: string | null;
  /** RFC 9449 §5: the key the refresh token is bound to (public clients only); null otherwise. */
  refreshJkt: string | null;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
}

export function newFamilyId(): string {
  return randomUUID();
}

/**
 * The writes of a grant, inside the caller's transaction: one refresh token and one access token
 * linked to it, both 256 random bits stored only as SHA-256 (docs/integrate-with-oauth.md, "Tokens").
 */
export async function insertTokens(tx: Tx, grant: IssueTokens): Promise<IssuedTokens> {
  const { p } = tx;
  const refreshToken = generateSecret(SECRET_PREFIX.refreshToken, 32);
  const accessToken = generateSecret(SECRET_PREFIX.accessToken, 32);
  const inserted = await tx.run<{ id: number | string }>(
    `INSERT INTO oauth_refresh_tokens (token_hash, client_id, user_id, scope, family_id, authorization_code_id, expires_at, created_at, auth_time, jkt)
     VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}, ${p(10)}) RETURNING id`,
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
    ],
  );
  await tx.run(
    `INSERT INTO oauth_access_tokens (token_hash, client_id, user_id, scope, family_id, refresh_token_id, expires_at, created_at, jkt)
     VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)})`,
    [
      sha256Hex(accessToken),
      grant.clientId,
      grant.userId,
      formatScope(grant.accessScope),
      grant.familyId,
      Number(inserted.rows[0].id),
      grant.now + grant.accessTtlSeconds * 1000,
      grant.now,
      grant.accessJkt,
    ],
  );
  // "Last used" of Connected apps (README.md, Your account): the last token issued, written with the grant itself
  // so that no API request ever writes.
  await tx.run(`UPDATE oauth_consents SET last_used_at = ${p(1)} WHERE user_id = ${p(2)} AND client_id = ${p(3)}`, [grant.now, grant.userId, grant.clientId]);
  return { accessToken, refreshToken };
}

export interface IssueClientToken {
  clientId: number;
  scope: string[];
  now: number;
  accessTtlSeconds: number;
  /** RFC 9449 §6: the DPoP key thumbprint the token is bound to; null for a Bearer token. */
  jkt: string | null;
}

/**
 * The write of a client-credentials grant (RFC 6749 §4.4.3): one access token with no user and no
 * refresh token, in a family of its own so that every revocation path treats it like any other token.
 */
export async function insertClientToken(tx: Tx, grant: IssueClientToken): Promise<string> {
  const { p } = tx;
  const accessToken = generateSecret(SECRET_PREFIX.accessToken, 32);
  await tx.run(
    `INSERT INTO oauth_access_tokens (token_hash, client_id, user_id, scope, family_id, refresh_token_id, expires_at, created_at, jkt)
     VALUES (${p(1)}, ${p(2)}, NULL, ${p(3)}, ${p(4)}, NULL, ${p(5)}, ${p(6)}, ${p(7)})`,
    [sha256Hex(accessToken), grant.clientId, formatScope(grant.scope), newFamilyId(), grant.now + grant.accessTtlSeconds * 1000, grant.now, grant.jkt],
  );
  return accessToken;
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
export async function claimGraceReuse(tx: Tx, token: { id: number; familyId: string }, rotatedSince: number, now: number): Promise<boolean> {
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
export async function revokeLivePair(tx: Tx, familyId: string, now: number): Promise<void> {
  const { p } = tx;
  const live = `SELECT id FROM oauth_refresh_tokens WHERE family_id = ${p(2)} AND revoked_at IS NULL AND rotated_at IS NULL`;
  await tx.run(`UPDATE oauth_access_tokens SET revoked_at = ${p(1)} WHERE revoked_at IS NULL AND refresh_token_id IN (${live})`, [now, familyId]);
  await tx.run(`UPDATE oauth_refresh_tokens SET revoked_at = ${p(1)} WHERE family_id = ${p(2)} AND revoked_at IS NULL AND rotated_at IS NULL`, [now, familyId]);
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

/**
 * Revokes every refresh and access token of one grant lineage (RFC 9700 §4.14.2); resolves with the
 * number of refresh tokens it revoked (0: the family was already revoked).
 */
export async function revokeFamily(tx: Tx, familyId: string, now: number): Promise<number> {
  const { p } = tx;
  await lockFamilies(tx, p(1), [familyId]);
  const refresh = await tx.run(`UPDATE oauth_refresh_tokens SET revoked_at = ${p(1)} WHERE family_id = ${p(2)} AND revoked_at IS NULL`, [now, familyId]);
  await tx.run(`UPDATE oauth_access_tokens SET revoked_at = ${p(1)} WHERE family_id = ${p(2)} AND revoked_at IS NULL`, [now, familyId]);
  return refresh.affected;
}

/**
 * Revoke access (README.md, Your account): every token of one user for one client, every code not yet redeemed,
 * and the consents, in the caller's transaction. Every access token of a user is issued beside a
 * refresh token of its family, so the families of the user's refresh tokens for that client hold them
 * all. On PostgreSQL those families are locked first (see lockFamilies), so a refresh committing at the
 * same moment either finishes before (and its new pair is revoked here) or finds its token revoked.
 */
export async function revokeUserGrant(tx: Tx, userId: number, clientId: number, now: number): Promise<void> {
  const { p } = tx;
  await lockFamilies(tx, `SELECT family_id FROM oauth_refresh_tokens WHERE user_id = ${p(1)} AND client_id = ${p(2)}`, [userId, clientId]);
  await tx.run(`UPDATE oauth_refresh_tokens SET revoked_at = ${p(1)} WHERE user_id = ${p(2)} AND client_id = ${p(3)} AND revoked_at IS NULL`, [now, userId, clientId]);
  await tx.run(
    `UPDATE oauth_access_tokens SET revoked_at = ${p(1)} WHERE revoked_at IS NULL
       AND family_id IN (SELECT family_id FROM oauth_refresh_tokens WHERE user_id = ${p(2)} AND client_id = ${p(3)})`,
    [now, userId, clientId],
  );
  // A code issued but not yet redeemed would mint new tokens: it counts as used from now on.
  await tx.run(
    `UPDATE oauth_authorization_codes SET consumed_at = ${p(1)} WHERE user_id = ${p(2)} AND client_id = ${p(3)} AND consumed_at IS NULL`,
    [now, userId, clientId],
  );
  await tx.run(`DELETE FROM oauth_consents WHERE user_id = ${p(1)} AND client_id = ${p(2)}`, [userId, clientId]);
}

/**
 * RFC 6749 §4.1.2: a code used twice revokes every token issued from it. The refresh token issued for
 * the code keeps its id; its family holds every later token of that grant.
 */
export async function revokeTokensOfCode(tx: Tx, codeId: number, now: number): Promise<void> {
  const { p } = tx;
  const families = `SELECT family_id FROM oauth_refresh_tokens WHERE authorization_code_id = ${p(2)}`;
  await lockFamilies(tx, `SELECT family_id FROM oauth_refresh_tokens WHERE authorization_code_id = ${p(1)}`, [codeId]);
  await tx.run(`UPDATE oauth_access_tokens SET revoked_at = ${p(1)} WHERE revoked_at IS NULL AND family_id IN (${families})`, [now, codeId]);
  await tx.run(`UPDATE oauth_refresh_tokens SET revoked_at = ${p(1)} WHERE revoked_at IS NULL AND family_id IN (${families})`, [now, codeId]);
}

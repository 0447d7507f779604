import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { statements, Tx } from '../../database/transaction';
import { AccountMailTokenPurpose } from './account-mail-token.entity';
import { Purgeable } from '../../database/purgeable';

/** An unused, unexpired token's account, as its page needs it. */
export interface TokenHolder {
  userId: number;
  email: string;
  name: string;
  newEmail: string | null;
}

/**
 * The links mailed about an existing account (`account_mail_tokens`) and the account changes they make,
 * each a statement of the change's transaction. A token is used by one conditional UPDATE
 * (`used_at IS NULL AND expires_at > now`), so it works once on every instance.
 */
@Injectable()
export class AccountMailTokensRepository implements Purgeable {
  constructor(private readonly dataSource: DataSource) {}

  async insert(tx: Tx, row: { userId: number; purpose: AccountMailTokenPurpose; tokenHash: string; newEmail?: string; expiresAt: number; createdAt: number }): Promise<void> {
    const p = tx.p;
    await tx.run(
      `INSERT INTO account_mail_tokens (user_id, purpose, token_hash, new_email, expires_at, created_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)})`,
      [row.userId, row.purpose, row.tokenHash, row.newEmail ?? null, row.expiresAt, row.createdAt],
    );
  }

  /** The account of a token waiting for its purpose, unused and unexpired; null otherwise. Nothing changes. */
  async holder(tokenHash: string, purpose: AccountMailTokenPurpose, now: number): Promise<TokenHolder | null> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const { rows } = await sql.run<{ user_id: number | string; email: string; name: string; new_email: string | null }>(
      `SELECT t.user_id, u.email, u.name, t.new_email FROM account_mail_tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = ${p(1)} AND t.purpose = ${p(2)} AND t.used_at IS NULL AND t.expires_at > ${p(3)}`,
      [tokenHash, purpose, now],
    );
    const row = rows[0];
    return row ? { userId: Number(row.user_id), email: row.email, name: row.name, newEmail: row.new_email } : null;
  }

  /** Uses the token once: its account (and new address), or null when it was used, expired or unknown. */
  async use(tx: Tx, tokenHash: string, purpose: AccountMailTokenPurpose, now: number): Promise<{ userId: number; newEmail: string | null; createdAt: number } | null> {
    const p = tx.p;
    const { rows } = await tx.run<{ user_id: number | string; new_email: string | null; created_at: number | string }>(
      `UPDATE account_mail_tokens SET used_at = ${p(1)} WHERE token_hash = ${p(2)} AND purpose = ${p(3)} AND used_at IS NULL AND expires_at > ${p(4)} RETURNING user_id, new_email, created_at`,
      [now, tokenHash, purpose, now],
    );
    return rows[0] ? { userId: Number(rows[0].user_id), newEmail: rows[0].new_email, createdAt: Number(rows[0].created_at) } : null;
  }

  /** Every other unused link of that purpose stops working (a reset done, an address changed). */
  async retire(tx: Tx, userId: number, purpose: AccountMailTokenPurpose, now: number): Promise<void> {
    const p = tx.p;
    await tx.run(`UPDATE account_mail_tokens SET used_at = ${p(1)} WHERE user_id = ${p(2)} AND purpose = ${p(3)} AND used_at IS NULL`, [now, userId, purpose]);
  }

  /**
   * Every unused link of the account stops working, whatever its kind (SECURITY.md, "A stolen session
   * outliving a password reset"): the ways back to an old address (restore_email) too, so the holder of an
   * address the owner moved away from cannot take the account back once the owner set a password or an
   * address since.
   */
  async retireAll(tx: Tx, userId: number, now: number): Promise<void> {
    const p = tx.p;
    await tx.run(`UPDATE account_mail_tokens SET used_at = ${p(1)} WHERE user_id = ${p(2)} AND used_at IS NULL`, [now, userId]);
  }

  /**
   * Sets the account's password hash and ends its sign-in sessions begun before `sessionsFrom`
   * (users.sessions_valid_from, checked by SessionService on every instance).
   */
  async setPassword(tx: Tx, userId: number, passwordHash: string, sessionsFrom: number): Promise<void> {
    const p = tx.p;
    await tx.run(`UPDATE users SET password_hash = ${p(1)}, sessions_valid_from = ${p(2)} WHERE id = ${p(3)}`, [passwordHash, sessionsFrom, userId]);
  }

  /** Ends the account's sign-in sessions begun before `from` (users.sessions_valid_from), the password unchanged. */
  async endSessions(tx: Tx, userId: number, from: number): Promise<void> {
    const p = tx.p;
    await tx.run(`UPDATE users SET sessions_valid_from = ${p(1)} WHERE id = ${p(2)}`, [from, userId]);
  }

  /** Changes the account's address, unless another account has it (then false, nothing written). */
  async setEmail(tx: Tx, userId: number, email: string): Promise<boolean> {
    const p = tx.p;
    const { affected } = await tx.run(
      `UPDATE users SET email = ${p(1)}, email_verified = true WHERE id = ${p(2)} AND NOT EXISTS (SELECT 1 FROM users other WHERE other.email = ${p(3)})`,
      [email, userId, email],
    );
    return affected === 1;
  }

  /** Deletes the links past their expiry, used or not (nothing can use them any more); returns how many. */
  async purgeExpired(now: number): Promise<number> {
    const sql = statements(this.dataSource);
    return (await sql.run(`DELETE FROM account_mail_tokens WHERE expires_at <= ${sql.p(1)}`, [now])).affected;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import { statements, Tx } from '../database/transaction';
import { RecoveryCode } from './recovery-code.entity';
import { TotpAuthenticator } from './totp-authenticator.entity';

/**
 * The authenticator apps (`totp_authenticators`) and recovery codes (`recovery_codes`) of accounts.
 * Reads go through the ORM's repository. The single-use rules are conditional UPDATEs whose
 * affected-row count says who won, so they hold on every instance sharing the database, and the writes
 * that join a change's transaction are statements of its `Tx` (src/database/transaction.ts): both SQL.
 */
@Injectable()
export class SecondFactorRepository {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(TotpAuthenticator) private readonly authenticators: Repository<TotpAuthenticator>,
    @InjectRepository(RecoveryCode) private readonly recoveryCodes: Repository<RecoveryCode>,
  ) {}

  authenticatorOf(userId: number): Promise<TotpAuthenticator | null> {
    return this.authenticators.findOneBy({ userId });
  }

  /** A new, unconfirmed authenticator for the user, replacing one still being set up (never a confirmed one). */
  async startSetup(userId: number, secretEncrypted: string, now: number): Promise<boolean> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    await sql.run(`DELETE FROM totp_authenticators WHERE user_id = ${p(1)} AND confirmed_at IS NULL`, [userId]);
    const { rows } = await sql.run(
      `INSERT INTO totp_authenticators (user_id, secret_encrypted, confirmed_at, last_used_step, created_at) VALUES (${p(1)}, ${p(2)}, NULL, NULL, ${p(3)})
       ON CONFLICT (user_id) DO NOTHING RETURNING user_id`,
      [userId, secretEncrypted, now],
    );
    return rows.length === 1;
  }

  /**
   * Confirms the setup with the step of the code that proved it (used up as any other), and replaces
   * the account's recovery codes, as statements of the caller's transaction: false when it was
   * confirmed already or is gone.
   */
  async confirm(tx: Tx, userId: number, step: number, codeHashes: string[], now: number): Promise<boolean> {
    const p = tx.p;
    const updated = await tx.run(`UPDATE totp_authenticators SET confirmed_at = ${p(1)}, last_used_step = ${p(2)} WHERE user_id = ${p(3)} AND confirmed_at IS NULL`, [
      now,
      step,
      userId,
    ]);
    if (updated.affected !== 1) return false;
    await this.setRecoveryCodes(tx, userId, codeHashes, now);
    return true;
  }

  /**
   * RFC 6238 §5.2: takes `step` as the last one used when it is later than the last one used, atomically
   * on every instance. False: this code (or a later one) was used already, or the authenticator is gone.
   */
  async useStep(userId: number, step: number): Promise<boolean> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const { affected } = await sql.run(
      `UPDATE totp_authenticators SET last_used_step = ${p(1)}
       WHERE user_id = ${p(2)} AND confirmed_at IS NOT NULL AND (last_used_step IS NULL OR last_used_step < ${p(3)})`,
      [step, userId, step],
    );
    return affected === 1;
  }

  /** Uses up one unused recovery code of the user, in the caller's transaction: true for the one request that wins. */
  async useRecoveryCode(tx: Tx, userId: number, codeHash: string, now: number): Promise<boolean> {
    const p = tx.p;
    const { affected } = await tx.run(`UPDATE recovery_codes SET used_at = ${p(1)} WHERE user_id = ${p(2)} AND code_hash = ${p(3)} AND used_at IS NULL`, [
      now,
      userId,
      codeHash,
    ]);
    return affected === 1;
  }

  unusedRecoveryCodes(userId: number): Promise<number> {
    return this.recoveryCodes.countBy({ userId, usedAt: IsNull() });
  }

  /**
   * Replaces the recovery codes of a confirmed authenticator with `codeHashes`, as statements of the
   * caller's transaction (the earlier codes, used or not, are gone): false when the app is not on.
   */
  async replaceRecoveryCodes(tx: Tx, userId: number, codeHashes: string[], now: number): Promise<boolean> {
    const p = tx.p;
    // A no-op UPDATE that finds the confirmed app (and on PostgreSQL locks its row against a turn-off in flight).
    const found = await tx.run(`UPDATE totp_authenticators SET confirmed_at = confirmed_at WHERE user_id = ${p(1)} AND confirmed_at IS NOT NULL`, [userId]);
    if (found.affected !== 1) return false;
    await this.setRecoveryCodes(tx, userId, codeHashes, now);
    return true;
  }

  /** The account's recovery codes become exactly `codeHashes`, unused (statements of the caller's transaction). */
  private async setRecoveryCodes(tx: Tx, userId: number, codeHashes: string[], now: number): Promise<void> {
    const p = tx.p;
    await tx.run(`DELETE FROM recovery_codes WHERE user_id = ${p(1)}`, [userId]);
    for (const hash of codeHashes) {
      await tx.run(`INSERT INTO recovery_codes (user_id, code_hash, used_at, created_at) VALUES (${p(1)}, ${p(2)}, NULL, ${p(3)})`, [userId, hash, now]);
    }
  }

  /** An authenticator still being set up (never a confirmed one), dropped in the caller's transaction. */
  async removePending(tx: Tx, userId: number): Promise<void> {
    await tx.run(`DELETE FROM totp_authenticators WHERE user_id = ${tx.p(1)} AND confirmed_at IS NULL`, [userId]);
  }

  /** Turns the authenticator off, in the caller's transaction: it and the recovery codes are gone. */
  async remove(tx: Tx, userId: number): Promise<boolean> {
    await tx.run(`DELETE FROM recovery_codes WHERE user_id = ${tx.p(1)}`, [userId]);
    const removed = await tx.run(`DELETE FROM totp_authenticators WHERE user_id = ${tx.p(1)}`, [userId]);
    return removed.affected > 0;
  }
}

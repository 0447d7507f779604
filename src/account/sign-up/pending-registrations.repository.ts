import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { statements, Tx } from '../../database/transaction';

export interface NewPendingRegistration {
  email: string;
  name: string;
  passwordHash: string;
  tokenHash: string;
  expiresAt: number;
  createdAt: number;
}

/**
 * The sign-ups waiting for their address (`pending_registrations`, README.md, Your account). A new one
 * replaces the address's earlier one, whose link stops working; redeeming deletes the row in the same
 * statement that finds it, so a link works once, on every instance.
 */
@Injectable()
export class PendingRegistrationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async replace(tx: Tx, row: NewPendingRegistration): Promise<void> {
    const p = tx.p;
    // The address's earlier sign-up goes, and with it every sign-up whose link has expired (they hold nothing).
    await tx.run(`DELETE FROM pending_registrations WHERE email = ${p(1)} OR expires_at <= ${p(2)}`, [row.email, row.createdAt]);
    await tx.run(
      `INSERT INTO pending_registrations (email, name, password_hash, token_hash, expires_at, created_at)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)})`,
      [row.email, row.name, row.passwordHash, row.tokenHash, row.expiresAt, row.createdAt],
    );
  }

  /** Whether a link's token is one waiting and unexpired (the page before the button; nothing changes). */
  async isValid(tokenHash: string, now: number): Promise<boolean> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run(`SELECT id FROM pending_registrations WHERE token_hash = ${sql.p(1)} AND expires_at > ${sql.p(2)}`, [tokenHash, now]);
    return rows.length > 0;
  }

  /** Takes the sign-up of a waiting, unexpired token out, once: null when there is none. */
  async redeem(tx: Tx, tokenHash: string, now: number): Promise<{ email: string; name: string; passwordHash: string } | null> {
    const p = tx.p;
    const { rows } = await tx.run<{ email: string; name: string; password_hash: string }>(
      `DELETE FROM pending_registrations WHERE token_hash = ${p(1)} AND expires_at > ${p(2)} RETURNING email, name, password_hash`,
      [tokenHash, now],
    );
    return rows[0] ? { email: rows[0].email, name: rows[0].name, passwordHash: rows[0].password_hash } : null;
  }

  /** Deletes the sign-ups whose link has expired; returns how many. */
  async purgeExpired(now: number): Promise<number> {
    const sql = statements(this.dataSource);
    return (await sql.run(`DELETE FROM pending_registrations WHERE expires_at <= ${sql.p(1)}`, [now])).affected;
  }
}

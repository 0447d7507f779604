import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { statements, Tx } from '../../database/transaction';
import { Purgeable } from '../../database/purgeable';

export interface NewPendingRegistration {
  email: string;
  name: string;
  passwordHash: string;
  tokenHash: string;
  expiresAt: number;
  createdAt: number;
}

/** A pending sign-up as its link finds it (the page before the button's password check). */
export interface WaitingRegistration {
  email: string;
  passwordHash: string;
}

/**
 * The sign-ups waiting for their address (`pending_registrations`, README.md, Your account). An address
 * may have several, each with its own link (as many as its mail budget lets through), so a stranger's
 * sign-up never takes the place of the owner's; confirming one deletes the others. Redeeming deletes the
 * row in the same statement that finds it, so a link works once, on every instance.
 */
@Injectable()
export class PendingRegistrationsRepository implements Purgeable {
  constructor(private readonly dataSource: DataSource) {}

  async add(tx: Tx, row: NewPendingRegistration): Promise<void> {
    const p = tx.p;
    // Every sign-up whose link has expired goes (they hold nothing); the address's live ones stay.
    await tx.run(`DELETE FROM pending_registrations WHERE expires_at <= ${p(1)}`, [row.createdAt]);
    await tx.run(
      `INSERT INTO pending_registrations (email, name, password_hash, token_hash, expires_at, created_at)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)})`,
      [row.email, row.name, row.passwordHash, row.tokenHash, row.expiresAt, row.createdAt],
    );
  }

  /** The sign-up of a waiting, unexpired token, or null (the page before the button; nothing changes). */
  async find(tokenHash: string, now: number): Promise<WaitingRegistration | null> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<{ email: string; password_hash: string }>(
      `SELECT email, password_hash FROM pending_registrations WHERE token_hash = ${sql.p(1)} AND expires_at > ${sql.p(2)}`,
      [tokenHash, now],
    );
    return rows[0] ? { email: rows[0].email, passwordHash: rows[0].password_hash } : null;
  }

  /** The address's other pending sign-ups go once one of them is confirmed: their links stop working. */
  async retireAll(tx: Tx, email: string): Promise<void> {
    await tx.run(`DELETE FROM pending_registrations WHERE email = ${tx.p(1)}`, [email]);
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

import { Injectable } from '@nestjs/common';
import { Tx } from '../database/transaction';

/**
 * The statements on `users` that run inside another change's transaction (src/database/transaction.ts):
 * an account created from a confirmed sign-up, with the mail that tells about it.
 */
@Injectable()
export class UsersRepository {
  async idByEmail(tx: Tx, email: string): Promise<number | null> {
    const { rows } = await tx.run<{ id: number | string }>(`SELECT id FROM users WHERE email = ${tx.p(1)}`, [email]);
    return rows[0] ? Number(rows[0].id) : null;
  }

  /** Creates the account of a confirmed sign-up (`email_verified` true) unless the address already has one (then null, nothing written). */
  async insert(tx: Tx, user: { email: string; name: string; passwordHash: string; createdAt: number }): Promise<number | null> {
    const p = tx.p;
    const { rows } = await tx.run<{ id: number | string }>(
      `INSERT INTO users (email, name, password_hash, email_verified, created_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, true, ${p(4)}) ON CONFLICT DO NOTHING RETURNING id`,
      [user.email, user.name, user.passwordHash, user.createdAt],
    );
    return rows[0] ? Number(rows[0].id) : null;
  }
}

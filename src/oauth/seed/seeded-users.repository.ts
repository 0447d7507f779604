import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { params } from '../../database/sql';
import { Tx } from '../../database/transaction';

/** One seeded user's row. */
export interface SeededUserRow {
  email: string;
  name: string;
}

/**
 * The seeded users' rows in `users`, written in batches inside the seeding transaction: multi-row
 * statements, since a seed may add up to 100,000 users. Each batch's size keeps the parameters far under
 * both engines' limits.
 */
@Injectable()
export class SeededUsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts the users whose address is not taken yet; how many were added. */
  async insertMissing(tx: Tx, users: SeededUserRow[], passwordHash: string, now: number): Promise<number> {
    const values: unknown[] = [];
    const tuples = users.map(({ email, name }) => {
      values.push(email, name, passwordHash, now);
      return `(${params(this.dataSource, 4, values.length - 3)})`;
    });
    const inserted = await tx.run(
      `INSERT INTO users (email, name, password_hash, created_at) VALUES ${tuples.join(', ')} ON CONFLICT (email) DO NOTHING RETURNING id`,
      values,
    );
    // RETURNING names only the rows inserted: the affected count of an INSERT is not reported on every engine.
    return inserted.rows.length;
  }

  /** The ids of the users with these addresses, by address. */
  async idsByEmail(tx: Tx, emails: string[]): Promise<Map<string, number>> {
    const found = await tx.run<{ id: number | string; email: string }>(`SELECT id, email FROM users WHERE email IN (${params(this.dataSource, emails.length)})`, emails);
    return new Map(found.rows.map((row) => [row.email, Number(row.id)]));
  }
}

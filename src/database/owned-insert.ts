import { DataSource } from 'typeorm';
import { inTransaction } from './transaction';

/** The owner already holds as many rows as allowed: nothing was inserted. */
export class OwnerLimitReachedError extends Error {
  constructor(readonly limit: number) {
    super(`Limit reached: at most ${limit}`);
  }
}

export interface OwnedInsert {
  /** The table, with an `owner_id` column referencing `users`. */
  table: string;
  /** Column → value of the new row, `owner_id` excluded. Column names are the caller's constants. */
  row: Record<string, unknown>;
  ownerId: number;
  /** The most rows the owner may hold that match `counted`. */
  limit: number;
  /** An extra SQL condition on the rows that count (e.g. `revoked_at IS NULL`); none: all of them. */
  counted?: string;
}

/**
 * Inserts one row owned by a user unless the user already holds `limit` of them, and returns its id.
 * Safe under concurrency: two inserts for one owner at once never take the owner past the limit.
 *
 * - The count and the insert are one statement (`INSERT … SELECT … WHERE (SELECT COUNT(*) …) < limit`),
 *   which SQLite runs with its write lock held from start to end.
 * - On PostgreSQL a statement's snapshot could miss a concurrent insert not yet committed, so the
 *   transaction first locks the owner's `users` row (`FOR NO KEY UPDATE`: it serializes these inserts
 *   per owner without blocking the rows that merely reference the user). Under READ COMMITTED the
 *   insert that follows takes its snapshot after the lock, so it counts what the previous holder
 *   committed.
 */
export async function insertOwned(dataSource: DataSource, input: OwnedInsert): Promise<number> {
  const columns = [...Object.keys(input.row), 'owner_id'];
  const values = [...Object.values(input.row), input.ownerId];
  const postgres = dataSource.options.type === 'postgres';
  const id = await inTransaction(dataSource, async (tx) => {
    if (postgres) await tx.run(`SELECT id FROM users WHERE id = ${tx.p(1)} FOR NO KEY UPDATE`, [input.ownerId]);
    const n = columns.length;
    const where = `owner_id = ${tx.p(n + 1)}${input.counted ? ` AND ${input.counted}` : ''}`;
    const { rows } = await tx.run<{ id: number | string }>(
      `INSERT INTO ${input.table} (${columns.join(', ')}) SELECT ${columns.map((_, i) => tx.p(i + 1)).join(', ')} ` +
        `WHERE (SELECT COUNT(*) FROM ${input.table} WHERE ${where}) < ${tx.p(n + 2)} RETURNING id`,
      [...values, input.ownerId, input.limit],
    );
    return rows[0]?.id;
  });
  if (id === undefined) throw new OwnerLimitReachedError(input.limit);
  return Number(id);
}

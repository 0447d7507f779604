import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { statements, Tx } from '../../database/transaction';

/** One consent with the name and public id of its client, as Connected apps lists them. */
export interface ConsentOfClient {
  /** The client's row id. */
  clientRowId: number;
  /** The client's public client_id. */
  clientId: string;
  name: string;
  scope: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** The consents (`cs`) given since their client last gained a redirect URI, or of a client that never did. */
const CURRENT_CONSENTS =
  'oauth_consents cs JOIN oauth_clients c ON c.id = cs.client_id AND (c.redirect_uris_added_at IS NULL OR cs.created_at >= c.redirect_uris_added_at)';

/**
 * The consents users gave (`oauth_consents`), one row per user, client and scope set. In SQL throughout:
 * the two writes that join a grant's transaction (src/database/transaction.ts) are statements of its
 * `Tx`, and remembering a consent is `INSERT … ON CONFLICT DO NOTHING` on both engines (the ORM's
 * `orIgnore()` is SQLite's `INSERT OR IGNORE`, which would also swallow a NOT NULL failure), so the
 * reads are written alike.
 */
@Injectable()
export class ConsentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The scope sets (space-separated) this user allowed this client and that still count: given after the
   * client last gained a redirect URI (`oauth_clients.redirect_uris_added_at`), so that no code goes to an
   * address the user never saw on a consent page.
   */
  async scopeSets(userId: number, clientId: number): Promise<string[]> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<{ scope: string }>(`SELECT cs.scope AS scope FROM ${CURRENT_CONSENTS} WHERE cs.user_id = ${sql.p(1)} AND cs.client_id = ${sql.p(2)}`, [
      userId,
      clientId,
    ]);
    return rows.map((row) => row.scope);
  }

  /** Whether the user allowed this client anything that still counts (see scopeSets). */
  async exists(userId: number, clientId: number): Promise<boolean> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run(`SELECT 1 AS found FROM ${CURRENT_CONSENTS} WHERE cs.user_id = ${sql.p(1)} AND cs.client_id = ${sql.p(2)} LIMIT 1`, [userId, clientId]);
    return rows.length > 0;
  }

  /**
   * Two approvals racing (two tabs) both succeed: the unique constraint keeps one row. A consent given
   * again (asked again after a new redirect URI) is dated anew, so that it counts from then on.
   */
  async remember(userId: number, clientId: number, scope: string, now: number): Promise<void> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    await sql.run(
      `INSERT INTO oauth_consents (user_id, client_id, scope, created_at, last_used_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, NULL) ` +
        'ON CONFLICT (user_id, client_id, scope) DO UPDATE SET created_at = excluded.created_at WHERE oauth_consents.created_at < excluded.created_at',
      [
      userId,
      clientId,
      scope,
      now,
    ]);
  }

  /** Every consent of the user, with its client's name and public id. */
  async ofUser(userId: number): Promise<ConsentOfClient[]> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<{ client_row_id: number | string; client_id: string; name: string; scope: string; created_at: number | string; last_used_at: number | string | null }>(
      `SELECT c.id AS client_row_id, c.client_id AS client_id, c.name AS name, cs.scope AS scope, cs.created_at AS created_at, cs.last_used_at AS last_used_at
       FROM oauth_consents cs JOIN oauth_clients c ON c.id = cs.client_id WHERE cs.user_id = ${sql.p(1)}`,
      [userId],
    );
    return rows.map((row) => ({
      clientRowId: Number(row.client_row_id),
      clientId: row.client_id,
      name: row.name,
      scope: row.scope,
      createdAt: Number(row.created_at),
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    }));
  }

  /**
   * "Last used" of Connected apps (README.md, Your account): the last token issued, written with the
   * grant itself so that no API request ever writes.
   */
  async markUsed(tx: Tx, userId: number, clientId: number, now: number): Promise<void> {
    await tx.run(`UPDATE oauth_consents SET last_used_at = ${tx.p(1)} WHERE user_id = ${tx.p(2)} AND client_id = ${tx.p(3)}`, [now, userId, clientId]);
  }

  /** Revoke access (README.md, Your account): the next authorize asks again. */
  async forget(tx: Tx, userId: number, clientId: number): Promise<void> {
    await tx.run(`DELETE FROM oauth_consents WHERE user_id = ${tx.p(1)} AND client_id = ${tx.p(2)}`, [userId, clientId]);
  }
}

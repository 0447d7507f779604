import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { jsonStringArray } from '../../database/columns';
import { statements, Tx } from '../../database/transaction';

/** A consent as the authorization endpoint reads it: a scope set and the redirect URIs it covers. */
export interface RememberedConsent {
  scope: string;
  redirectUris: string[];
}

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

  /** The scope sets (space-separated) this user allowed this client, each with the redirect URIs it covers. */
  async scopeSets(userId: number, clientId: number): Promise<RememberedConsent[]> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<{ scope: string; redirect_uris: string | null }>(
      `SELECT scope, redirect_uris FROM oauth_consents WHERE user_id = ${sql.p(1)} AND client_id = ${sql.p(2)}`,
      [userId, clientId],
    );
    return rows.map((row) => ({ scope: row.scope, redirectUris: (jsonStringArray.from(row.redirect_uris) as string[] | null) ?? [] }));
  }

  /**
   * Two approvals racing (two tabs) both succeed: the unique constraint keeps one row, with the redirect
   * URIs of the last (`redirectUris`: those the caller read, with the one of this consent added).
   */
  async remember(userId: number, clientId: number, scope: string, redirectUris: string[], now: number): Promise<void> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    await sql.run(
      `INSERT INTO oauth_consents (user_id, client_id, scope, created_at, last_used_at, redirect_uris) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, NULL, ${p(5)}) ` +
        'ON CONFLICT (user_id, client_id, scope) DO UPDATE SET redirect_uris = excluded.redirect_uris',
      [userId, clientId, scope, now, jsonStringArray.to(redirectUris)],
    );
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

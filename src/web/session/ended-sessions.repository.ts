import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Purgeable } from '../../database/purgeable';
import { statements } from '../../database/transaction';

/**
 * The signed-in sessions ended before their cookie expired (`ended_sessions`, shared by every instance);
 * rows past their cookie's expiry are purged (purgeExpired, called by TokenPurgeService). In SQL
 * throughout: the check reads two tables in one statement (a UNION the ORM's repository cannot write),
 * and the record is an insert that ignores a second one (docs/add-a-module.md, "Data access").
 */
@Injectable()
export class EndedSessionsRepository implements Purgeable {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Whether a signed-in session has ended, in one statement: signed out (its id in `ended_sessions`), or
   * begun before the account ended its sessions (a password reset or change sets
   * `users.sessions_valid_from`), so that it is refused on every instance.
   */
  async isEnded(sid: string, uid: number, authAt: number): Promise<boolean> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const { rows } = await sql.run(
      `SELECT 1 AS ended FROM ended_sessions WHERE sid = ${p(1)}
       UNION ALL SELECT 1 AS ended FROM users WHERE id = ${p(2)} AND sessions_valid_from > ${p(3)}`,
      [sid, uid, authAt],
    );
    return rows.length > 0;
  }

  /** A signed-out session past its expiry no longer opens at all: its row proves nothing any more. */
  async purgeExpired(now: number): Promise<number> {
    const sql = statements(this.dataSource);
    return (await sql.run(`DELETE FROM ended_sessions WHERE expires_at <= ${sql.p(1)}`, [now])).affected;
  }

  /** Records the session as ended until `expiresAt`. Two tabs ending the same session at once: the second insert changes nothing. */
  async record(sid: string, expiresAt: number): Promise<void> {
    const sql = statements(this.dataSource);
    await sql.run(`INSERT INTO ended_sessions (sid, expires_at) VALUES (${sql.p(1)}, ${sql.p(2)}) ON CONFLICT (sid) DO NOTHING`, [sid, expiresAt]);
  }
}

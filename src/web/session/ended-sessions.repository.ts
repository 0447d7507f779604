import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { statements } from '../../database/transaction';
import { EndedSession } from './ended-session.entity';

/**
 * The signed-in sessions ended before their cookie expired (`ended_sessions`, shared by every instance);
 * rows past their cookie's expiry are purged by TokenPurgeService.
 */
@Injectable()
export class EndedSessionsRepository {
  constructor(@InjectRepository(EndedSession) private readonly ended: Repository<EndedSession>) {}

  isEnded(sid: string): Promise<boolean> {
    return this.ended.existsBy({ sid });
  }

  /**
   * Whether the account ended its sessions after `authAt` (a password reset or change sets
   * `users.sessions_valid_from`), so that a session begun before is refused on every instance.
   */
  async endedByAccount(uid: number, authAt: number): Promise<boolean> {
    const sql = statements(this.ended.manager.connection);
    const { rows } = await sql.run(`SELECT 1 AS ended FROM users WHERE id = ${sql.p(1)} AND sessions_valid_from > ${sql.p(2)}`, [uid, authAt]);
    return rows.length > 0;
  }

  /** Records the session as ended until `expiresAt`. Two tabs ending the same session at once: the second insert changes nothing. */
  async record(sid: string, expiresAt: number): Promise<void> {
    await this.ended.createQueryBuilder().insert().values({ sid, expiresAt }).orIgnore().execute();
  }
}

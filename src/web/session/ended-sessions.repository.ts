import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
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

  /** Records the session as ended until `expiresAt`. Two tabs ending the same session at once: the second insert changes nothing. */
  async record(sid: string, expiresAt: number): Promise<void> {
    await this.ended.createQueryBuilder().insert().values({ sid, expiresAt }).orIgnore().execute();
  }
}

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { EpochColumn } from '../../database/columns';

/**
 * A signed-in session that was signed out before its cookie expired. The cookie carries the whole
 * session sealed, so a copy taken before sign-out would otherwise still open; every instance refuses a
 * session whose id is listed here. A row is needed only until the session would have expired anyway,
 * then the purge deletes it.
 */
@Entity({ name: 'ended_sessions' })
@Index('idx_ended_sessions_expires_at', ['expiresAt'])
export class EndedSession {
  /** The session's random id (`Session.sid`); worthless without SESSION_SECRET, and dead anyway. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  sid: string;

  /** When the session's cookie expires (epoch ms): after that the row proves nothing. */
  @Column(EpochColumn({ name: 'expires_at' }))
  expiresAt: number;
}

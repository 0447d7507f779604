import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { EpochColumn } from '../database/columns';
import { User } from '../users/user.entity';
import { SecurityEventType } from '../common/security-event-types';

/** One security event of an account (README.md, Your account); `details` is a small JSON object, never a secret. Indexes: see migration 1763700000100. */
@Entity({ name: 'security_events' })
@Index('idx_security_events_user_created', ['userId', 'createdAt', 'id'])
@Index('idx_security_events_created', ['createdAt'])
export class SecurityEvent {
  @PrimaryGeneratedColumn()
  id: number;

  /** Rows go with their user. */
  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => User, { onDelete: 'CASCADE' })
  userId: number;

  @Column({ type: 'varchar', length: 40 })
  type: SecurityEventType;

  @Column({ type: 'varchar', length: 45, nullable: true })
  ip: string | null;

  @Column({ type: 'text', nullable: true })
  details: string | null;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;
}

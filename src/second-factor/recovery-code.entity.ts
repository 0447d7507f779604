import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { EpochColumn } from '../database/columns';
import { User } from '../users/user.entity';

/** One recovery code of an account (docs/second-factor.md): its SHA-256 only; `usedAt` once it has worked. */
@Entity({ name: 'recovery_codes' })
@Index('idx_recovery_codes_user_code', ['userId', 'codeHash'], { unique: true })
export class RecoveryCode {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => User, { onDelete: 'CASCADE' })
  userId: number;

  @Column({ name: 'code_hash', type: 'varchar', length: 64 })
  codeHash: string;

  @Column(EpochColumn({ name: 'used_at', nullable: true }))
  usedAt: number | null;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;
}

import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { EpochColumn } from '../../database/columns';
import { User } from '../../users/user.entity';

/**
 * reset_password and change_email as their names say; cancel_email_change, mailed to the current address
 * when a change is asked for, retires the pending change (new_email: the address asked for);
 * restore_email, mailed to the old address once the change is made, puts it back (new_email: that old
 * address). At most 20 characters (the column).
 */
export type AccountMailTokenPurpose = 'reset_password' | 'change_email' | 'cancel_email_change' | 'restore_email';

/** A link mailed about an existing account (README.md, Your account), as migration 1790000002903 made it. */
@Entity({ name: 'account_mail_tokens' })
@Index('idx_account_mail_tokens_user', ['userId'])
@Index('idx_account_mail_tokens_expires_at', ['expiresAt'])
export class AccountMailToken {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => User, { onDelete: 'CASCADE' })
  userId: number;

  @Column({ type: 'varchar', length: 20 })
  purpose: AccountMailTokenPurpose;

  /** SHA-256 (hex) of the link's token. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  /** change_email and cancel_email_change: the address asked for; restore_email: the address to put back. */
  @Column({ name: 'new_email', type: 'varchar', length: 254, nullable: true })
  newEmail: string | null;

  @Column(EpochColumn({ name: 'expires_at' }))
  expiresAt: number;

  @Column(EpochColumn({ name: 'used_at', nullable: true }))
  usedAt: number | null;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;
}

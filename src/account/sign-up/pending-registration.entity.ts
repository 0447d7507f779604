import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { EpochColumn } from '../../database/columns';

/**
 * A sign-up waiting for its address to be confirmed (README.md, Your account), as migrations 1790000002902
 * and 1790000003401 made it: several per address, each with its own link.
 */
@Entity({ name: 'pending_registrations' })
@Index('idx_pending_registrations_expires_at', ['expiresAt'])
@Index('idx_pending_registrations_email', ['email'])
export class PendingRegistration {
  @PrimaryGeneratedColumn()
  id: number;

  /** Lower-cased; an address may have several pending sign-ups (as many as its mail budget let through). */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** The chosen password's slow hash (PasswordHasher), moved to the account on confirmation. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash: string;

  /** SHA-256 (hex) of the link's token. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  @Column(EpochColumn({ name: 'expires_at' }))
  expiresAt: number;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;
}

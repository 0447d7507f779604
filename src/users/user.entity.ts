import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { EpochColumn } from '../database/columns';

@Entity({ name: 'users' })
export class User {
  @PrimaryGeneratedColumn()
  id: number;

  /** Stored lower-cased; unique. */
  @Column({ type: 'varchar', length: 254, unique: true })
  email: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** `scrypt$N$r$p$salt$hash`, see PasswordHasher. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash: string;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;

  /** Whether the address is confirmed (by the operator for `users:create`, by the mailed link for a sign-up): see migration 1790000002904. */
  @Column({ name: 'email_verified', type: 'boolean', default: () => 'true' })
  emailVerified: boolean;

  /** Sign-in sessions that began before this instant (epoch ms) are refused: see migration 1790000002903. */
  @Column(EpochColumn({ name: 'sessions_valid_from', nullable: true }))
  sessionsValidFrom: number | null;
}

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { EpochColumn } from '../database/columns';

/** A WebAuthn challenge already used by a ceremony: refused on every instance until it expires. */
@Entity({ name: 'passkey_challenges_used' })
@Index('idx_passkey_challenges_used_expires_at', ['expiresAt'])
export class UsedPasskeyChallenge {
  @PrimaryColumn({ name: 'challenge_hash', type: 'varchar', length: 64 })
  challengeHash: string;

  @Column(EpochColumn({ name: 'expires_at' }))
  expiresAt: number;
}

import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { EpochColumn } from '../database/columns';
import { User } from '../users/user.entity';

export const API_KEY_TIERS = ['standard', 'partner'] as const;
export type ApiKeyTier = (typeof API_KEY_TIERS)[number];

@Entity({ name: 'api_keys' })
@Index('idx_api_keys_owner', ['ownerId'])
export class ApiKey {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 20 })
  tier: ApiKeyTier;

  /** SHA-256 of the whole key, hex. The key itself is shown once and never stored. */
  @Column({ name: 'key_hash', type: 'varchar', length: 64, unique: true })
  keyHash: string;

  /** The first characters of the key, safe to show so that people can tell their keys apart. */
  @Column({ type: 'varchar', length: 32 })
  prefix: string;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;

  @Column(EpochColumn({ name: 'last_used_at', nullable: true }))
  lastUsedAt: number | null;

  @Column(EpochColumn({ name: 'revoked_at', nullable: true }))
  revokedAt: number | null;

  /** The user who made it in the developer portal (README.md, Your account); null when an operator made it with the CLI. */
  @Column({ name: 'owner_id', type: 'integer', nullable: true })
  // A user's keys go with the user; the name PostgreSQL gave it (1763700000200), and SQLite since 1790000000951.
  @ForeignKey(() => User, { name: 'api_keys_owner_id_fkey', onDelete: 'CASCADE' })
  ownerId: number | null;
}

import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Client } from '../../clients/client.entity';
import { EpochColumn, methodList, scopeList } from '../../database/columns';
import { User } from '../../users/user.entity';

export type DeviceAuthorizationStatus = 'pending' | 'approved' | 'denied';

/**
 * One device authorization request (RFC 8628 §3.1–§3.5): its device code and user code are stored only
 * as SHA-256 hashes; the user approves or denies it on `/device`, the device polls the token endpoint.
 */
@Entity({ name: 'oauth_device_authorizations' })
@Index('idx_oauth_device_expires_at', ['expiresAt'])
export class DeviceAuthorization {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'device_code_hash', type: 'varchar', length: 64, unique: true })
  deviceCodeHash: string;

  /** SHA-256 of the normalised user code (8 letters, upper case, no hyphen). */
  @Column({ name: 'user_code_hash', type: 'varchar', length: 64, unique: true })
  userCodeHash: string;

  @Column({ name: 'client_id', type: 'integer' })
  @ForeignKey(() => Client, { onDelete: 'CASCADE' })
  clientId: number;

  @Column({ type: 'text', transformer: scopeList })
  scope: string[];

  @Column({ type: 'varchar', length: 10 })
  status: DeviceAuthorizationStatus;

  /** The user who decided; null while pending. */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  @ForeignKey(() => User, { onDelete: 'CASCADE' })
  userId: number | null;

  /** When that user signed in (epoch ms): the ID token's `auth_time`. */
  @Column(EpochColumn({ name: 'auth_time', nullable: true }))
  authTime: number | null;

  /** RFC 8176: how the user signed in (`pwd`; `pwd`, `otp`, `mfa`), the ID token's `amr`; null when not recorded. */
  @Column({ type: 'varchar', length: 64, nullable: true, transformer: methodList })
  amr: string[] | null;

  /** RFC 8707: the resource the grant was asked for (ProtectedResources); null when it named none, which is the public API. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  resource: string | null;

  /** RFC 8628 §3.5: the minimum seconds between polls; grows by 5 at each `slow_down`. */
  @Column({ name: 'interval_seconds', type: 'integer' })
  intervalSeconds: number;

  @Column(EpochColumn({ name: 'last_polled_at', nullable: true }))
  lastPolledAt: number | null;

  @Column(EpochColumn({ name: 'expires_at' }))
  expiresAt: number;

  @Column(EpochColumn({ name: 'decided_at', nullable: true }))
  decidedAt: number | null;

  /** Set atomically by the one token request that wins; a second one is refused. */
  @Column(EpochColumn({ name: 'redeemed_at', nullable: true }))
  redeemedAt: number | null;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;
}

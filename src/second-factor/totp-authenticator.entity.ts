import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { EpochColumn } from '../database/columns';
import { User } from '../users/user.entity';

/**
 * A user's authenticator app (RFC 6238; docs/second-factor.md). The secret is stored only encrypted
 * (KeyEncryption, as the signing keys); `confirmedAt` is null while it is being set up.
 */
@Entity({ name: 'totp_authenticators' })
export class TotpAuthenticator {
  @PrimaryColumn({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => User, { onDelete: 'CASCADE' })
  userId: number;

  /** `v1.<secretId>.<iv>.<tag>.<ciphertext>` of the base32 secret (src/oidc/keys/key-encryption.ts). */
  @Column({ name: 'secret_encrypted', type: 'text' })
  secretEncrypted: string;

  /** When a first code confirmed the setup; null: not asked for at sign-in yet. */
  @Column(EpochColumn({ name: 'confirmed_at', nullable: true }))
  confirmedAt: number | null;

  /** RFC 6238 §5.2: the time step of the last code accepted; a code of this step or earlier is refused. */
  @Column({ name: 'last_used_step', type: 'bigint', nullable: true, transformer: { to: (v: number | null) => v, from: (v: string | number | null) => (v === null ? null : Number(v)) } })
  lastUsedStep: number | null;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;
}

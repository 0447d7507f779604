import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { EpochColumn, scopeList } from '../../database/columns';

/** An issued access token (RFC 6749 §1.4), stored only as a SHA-256 hash. */
@Entity({ name: 'oauth_access_tokens' })
export class AccessToken {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  /** The user the token acts for; null for a client-credentials token, which acts for its client alone. */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @Column({ type: 'text', transformer: scopeList })
  scope: string[];

  /** The grant lineage: every token descending from one authorization code shares it. */
  @Column({ name: 'family_id', type: 'varchar', length: 36 })
  familyId: string;

  /** The refresh token issued beside this access token, if any. */
  @Column({ name: 'refresh_token_id', type: 'integer', nullable: true })
  refreshTokenId: number | null;

  /** RFC 9449 §6: the SHA-256 thumbprint (RFC 7638) of the DPoP key the token is bound to; null for a Bearer token. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  jkt: string | null;

  @Column(EpochColumn({ name: 'expires_at' }))
  expiresAt: number;

  @Column(EpochColumn({ name: 'revoked_at', nullable: true }))
  revokedAt: number | null;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;
}

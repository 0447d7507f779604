import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { EpochColumn, scopeList } from '../../database/columns';

/**
 * A refresh token (RFC 6749 §6). Tokens rotate: each use retires the presented one and issues a
 * successor in the same family; presenting a retired one revokes the family (RFC 9700 §4.14.2).
 */
@Entity({ name: 'oauth_refresh_tokens' })
export class RefreshToken {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'text', transformer: scopeList })
  scope: string[];

  @Column({ name: 'family_id', type: 'varchar', length: 36 })
  familyId: string;

  /** The authorization code the family started from, so a replayed code can revoke it (RFC 6749 §4.1.2). */
  @Column({ name: 'authorization_code_id', type: 'integer', nullable: true })
  authorizationCodeId: number | null;

  /** RFC 9449 §6: the SHA-256 thumbprint (RFC 7638) of the DPoP key the token is bound to; null for a Bearer token. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  jkt: string | null;

  @Column(EpochColumn({ name: 'expires_at' }))
  expiresAt: number;

  /** Set when the token was used and replaced by a successor. */
  @Column(EpochColumn({ name: 'rotated_at', nullable: true }))
  rotatedAt: number | null;

  @Column(EpochColumn({ name: 'revoked_at', nullable: true }))
  revokedAt: number | null;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;
}

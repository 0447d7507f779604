import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { User } from '../../users/user.entity';
import { AuthorizationCode } from './authorization-code.entity';
import { EpochColumn, methodList } from '../../database/columns';
import { TokenColumns } from './token-columns';

/**
 * A refresh token (RFC 6749 §6). Tokens rotate: each use retires the presented one and issues a
 * successor in the same family; presenting a retired one revokes the family (RFC 9700 §4.14.2).
 */
@Entity({ name: 'oauth_refresh_tokens' })
@Index('idx_oauth_refresh_family', ['familyId'])
@Index('idx_oauth_refresh_code', ['authorizationCodeId'])
@Index('idx_oauth_refresh_expires_at', ['expiresAt'])
// A user's refresh tokens of one client, for Revoke access (migration 1763700000101).
@Index('idx_oauth_refresh_user_client', ['userId', 'clientId'])
export class RefreshToken extends TokenColumns {
  /** Every refresh token has a user: only the grants that act for a user issue them. */
  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => User, { onDelete: 'CASCADE' })
  userId: number;

  /** The authorization code the family started from, so a replayed code can revoke it (RFC 6749 §4.1.2). */
  @Column({ name: 'authorization_code_id', type: 'integer', nullable: true })
  @ForeignKey(() => AuthorizationCode, { onDelete: 'SET NULL' })
  authorizationCodeId: number | null;

  /** Set when the token was used and replaced by a successor. */
  @Column(EpochColumn({ name: 'rotated_at', nullable: true }))
  rotatedAt: number | null;

  /** When the user signed in for this grant (epoch ms): the `auth_time` of the ID tokens of later refreshes. */
  @Column(EpochColumn({ name: 'auth_time', nullable: true }))
  authTime: number | null;

  /** RFC 8176: how the user signed in (`pwd`; `pwd`, `otp`, `mfa`), the ID token's `amr`; null when not recorded. */
  @Column({ type: 'varchar', length: 64, nullable: true, transformer: methodList })
  amr: string[] | null;

  /** OIDC Core §2 `acr`: the context class the sign-in met when the request asked for it (migration 1790000003402); null otherwise. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  acr: string | null;
}

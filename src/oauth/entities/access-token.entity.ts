import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { User } from '../../users/user.entity';
import { RefreshToken } from './refresh-token.entity';
import { TokenColumns } from './token-columns';

/** An issued access token (RFC 6749 §1.4), stored only as a SHA-256 hash. */
@Entity({ name: 'oauth_access_tokens' })
@Index('idx_oauth_access_family', ['familyId'])
@Index('idx_oauth_access_refresh', ['refreshTokenId'])
@Index('idx_oauth_access_expires_at', ['expiresAt'])
export class AccessToken extends TokenColumns {
  /** The user the token acts for; null for a client-credentials token, which acts for its client alone. */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  @ForeignKey(() => User, { onDelete: 'CASCADE' })
  userId: number | null;

  /** The refresh token issued beside this access token, if any. */
  @Column({ name: 'refresh_token_id', type: 'integer', nullable: true })
  @ForeignKey(() => RefreshToken, { onDelete: 'SET NULL' })
  refreshTokenId: number | null;
}

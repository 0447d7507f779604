import { Column, Entity } from 'typeorm';
import { TokenColumns } from './token-columns';

/** An issued access token (RFC 6749 §1.4), stored only as a SHA-256 hash. */
@Entity({ name: 'oauth_access_tokens' })
export class AccessToken extends TokenColumns {
  /** The user the token acts for; null for a client-credentials token, which acts for its client alone. */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  /** The refresh token issued beside this access token, if any. */
  @Column({ name: 'refresh_token_id', type: 'integer', nullable: true })
  refreshTokenId: number | null;
}

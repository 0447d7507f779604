import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Client } from '../../clients/client.entity';
import { EpochColumn, methodList, scopeList } from '../../database/columns';
import { User } from '../../users/user.entity';

/**
 * An issued authorization code (RFC 6749 §4.1.2), stored only as a hash and bound to everything the
 * token request must match.
 */
@Entity({ name: 'oauth_authorization_codes' })
@Index('idx_oauth_codes_expires_at', ['expiresAt'])
export class AuthorizationCode {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'code_hash', type: 'varchar', length: 64, unique: true })
  codeHash: string;

  @Column({ name: 'client_id', type: 'integer' })
  @ForeignKey(() => Client, { onDelete: 'CASCADE' })
  clientId: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => User, { onDelete: 'CASCADE' })
  userId: number;

  @Column({ name: 'redirect_uri', type: 'text' })
  redirectUri: string;

  @Column({ type: 'text', transformer: scopeList })
  scope: string[];

  /** RFC 8707: the resource the grant was asked for (ProtectedResources); null when it named none, which is the public API. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  resource: string | null;

  @Column({ name: 'code_challenge', type: 'varchar', length: 128, nullable: true })
  codeChallenge: string | null;

  @Column({ name: 'code_challenge_method', type: 'varchar', length: 10, nullable: true })
  codeChallengeMethod: string | null;

  /** OIDC Core §3.1.2.1 `nonce`, returned in the ID token. */
  @Column({ type: 'varchar', length: 512, nullable: true })
  nonce: string | null;

  /** When the user signed in (epoch ms): the ID token's `auth_time`. */
  @Column(EpochColumn({ name: 'auth_time', nullable: true }))
  authTime: number | null;

  /** RFC 8176: how the user signed in (`pwd`; `pwd`, `otp`, `mfa`), the ID token's `amr`; null when not recorded. */
  @Column({ type: 'varchar', length: 64, nullable: true, transformer: methodList })
  amr: string[] | null;

  /** OIDC Core §2 `acr`: the context class the sign-in met when the request asked for it (migration 1790000003402); null otherwise. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  acr: string | null;

  @Column(EpochColumn({ name: 'expires_at' }))
  expiresAt: number;

  /** Set atomically by the one redemption that wins; a second redemption is a replay. */
  @Column(EpochColumn({ name: 'consumed_at', nullable: true }))
  consumedAt: number | null;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;
}

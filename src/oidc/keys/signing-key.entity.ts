import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { EpochColumn } from '../../database/columns';

export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/**
 * `active`: signs new ID tokens (one per algorithm) and is published. `published`: no longer signs, still
 * in the JWKS until `retire_at`, when every ID token it signed has expired. `retired`: kept for the
 * record, never served.
 */
export const SIGNING_KEY_STATES = ['active', 'published', 'retired'] as const;
export type SigningKeyState = (typeof SIGNING_KEY_STATES)[number];

/** An ID-token signing key (docs/integrate-with-oauth.md, OpenID Connect). The private key is stored only encrypted (see KeyEncryption). */
@Entity({ name: 'signing_keys' })
// At most one active key per algorithm, on both engines (migration 1763700000350).
@Index('uq_signing_keys_active_alg', ['alg'], { unique: true, where: "state = 'active'" })
@Index('idx_signing_keys_state', ['state', 'createdAt'])
export class SigningKey {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  kid: string;

  @Column({ type: 'varchar', length: 10 })
  alg: SigningAlg;

  @Column({ type: 'varchar', length: 10 })
  state: SigningKeyState;

  /** The public JWK (RFC 7517) as JSON, exactly as the JWKS serves it. */
  @Column({ name: 'public_jwk', type: 'text' })
  publicJwk: string;

  /** The private JWK, encrypted: `v1.<secretId>.<iv>.<tag>.<ciphertext>`. */
  @Column({ name: 'private_key', type: 'text' })
  privateKey: string;

  /** 1 when encrypted under a secret generated for one development process (KEY_ENCRYPTION_SECRET unset). */
  @Column({ name: 'generated_secret', type: 'integer', default: 0 })
  generatedSecret: number;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;

  /** When it stopped signing (a rotation); null while active. */
  @Column(EpochColumn({ name: 'deactivated_at', nullable: true }))
  deactivatedAt: number | null;

  /** When it leaves the JWKS: every ID token it signed has expired by then. Null while active. */
  @Column(EpochColumn({ name: 'retire_at', nullable: true }))
  retireAt: number | null;
}

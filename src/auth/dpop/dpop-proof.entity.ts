import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { EpochColumn } from '../../database/columns';

/**
 * A DPoP proof already used (RFC 9449 §11.1), when no Redis is configured: every instance refuses a
 * proof listed here. A row is needed only while its proof could still be accepted; then the purge
 * deletes it.
 */
@Entity({ name: 'dpop_proofs' })
@Index('idx_dpop_proofs_expires_at', ['expiresAt'])
export class DpopProof {
  /** SHA-256 of the key's thumbprint and the proof's `jti`: the client's values are never stored. */
  @PrimaryColumn({ name: 'proof_hash', type: 'varchar', length: 64 })
  proofHash: string;

  /** Until when the proof could be accepted (epoch ms). */
  @Column(EpochColumn({ name: 'expires_at' }))
  expiresAt: number;
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, LessThanOrEqual, Repository } from 'typeorm';
import { statements } from '../../database/transaction';
import { DpopProof } from './dpop-proof.entity';
import { Purgeable } from '../../database/purgeable';

/**
 * The DPoP proofs already used (`dpop_proofs`, RFC 9449 §11.1), when no Redis is configured. Claiming a
 * proof is one hand-written statement (an upsert that claims a new or expired row and returns it): the
 * one statement is what decides, on both engines, which of two requests racing with one proof is first.
 */
@Injectable()
export class DpopProofsRepository implements Purgeable {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(DpopProof) private readonly proofs: Repository<DpopProof>,
  ) {}

  /** True when this call claimed the proof until `expiresAt`; false when a live row holds it (a replay). */
  async claim(proofHash: string, expiresAt: number, now: number): Promise<boolean> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const { rows } = await sql.run(
      `INSERT INTO dpop_proofs (proof_hash, expires_at) VALUES (${p(1)}, ${p(2)})
       ON CONFLICT (proof_hash) DO UPDATE SET expires_at = excluded.expires_at WHERE dpop_proofs.expires_at <= ${p(3)}
       RETURNING proof_hash`,
      [proofHash, expiresAt, now],
    );
    return rows.length === 1;
  }

  /** A used proof past its acceptance window would be refused for its `iat` anyway. */
  async purgeExpired(now: number): Promise<number> {
    return (await this.proofs.delete({ expiresAt: LessThanOrEqual(now) })).affected ?? 0;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, LessThanOrEqual, Not, Repository } from 'typeorm';
import { Clock } from '../../common/clock';
import { inTransaction, Tx } from '../../database/transaction';
import { SigningAlg, SigningKey } from './signing-key.entity';

// An arbitrary constant naming "signing-key changes" among PostgreSQL advisory locks (see migrate.ts).
const SIGNING_KEYS_LOCK_KEY = 7_301_142_350;

/** A new key as the service made it: the private JWK already encrypted. */
export interface NewSigningKey {
  kid: string;
  alg: SigningAlg;
  publicJwk: string;
  privateKey: string;
  generatedSecret: boolean;
}

/** The statements of one change of the keys, inside its transaction (see SigningKeysRepository.change). */
export interface SigningKeyChanges {
  /** Whether an active key of `alg` exists (made meanwhile by another instance, say). */
  hasActive(alg: SigningAlg): Promise<boolean>;
  /** The active key of `alg` (only `kid`, when given) stops signing and stays published until `retireAt`. */
  deactivate(alg: SigningAlg, now: number, retireAt: number, kid?: string): Promise<void>;
  insert(key: NewSigningKey, now: number): Promise<void>;
}

/**
 * The ID-token signing keys (`signing_keys`). Reads and the retirement of expired keys go through the
 * ORM. A change of the keys (first start, rotation) is one transaction in which, on PostgreSQL, the
 * instances take turns on an advisory lock, so two starting at once do not both make an active key;
 * those statements are the transaction's own (src/database/transaction.ts).
 */
@Injectable()
export class SigningKeysRepository {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(SigningKey) private readonly keys: Repository<SigningKey>,
    private readonly clock: Clock,
  ) {}

  /** Every key, newest first. */
  all(): Promise<SigningKey[]> {
    return this.keys.find({ order: { createdAt: 'DESC', kid: 'ASC' } });
  }

  /** The keys not marked retired, newest first. */
  notRetired(): Promise<SigningKey[]> {
    return this.keys.find({ where: { state: Not('retired') }, order: { createdAt: 'DESC', kid: 'ASC' } });
  }

  active(): Promise<SigningKey[]> {
    return this.keys.findBy({ state: 'active' });
  }

  /** Published keys past their `retire_at` are retired: they leave the JWKS. */
  async retireExpired(now: number): Promise<void> {
    await this.keys.update({ state: 'published', retireAt: LessThanOrEqual(now) }, { state: 'retired' });
  }

  /** Runs `work` as one change of the keys, after the expired ones are retired; `now` is taken once the lock is held. */
  change<T>(work: (changes: SigningKeyChanges, now: number) => Promise<T>): Promise<T> {
    const postgres = this.dataSource.options.type === 'postgres';
    return inTransaction(this.dataSource, async (tx) => {
      if (postgres) await tx.run('SELECT pg_advisory_xact_lock($1)', [SIGNING_KEYS_LOCK_KEY]);
      const now = this.clock.now();
      await tx.run(`UPDATE signing_keys SET state = 'retired' WHERE state = 'published' AND retire_at <= ${tx.p(1)}`, [now]);
      return work(changesIn(tx), now);
    });
  }
}

function changesIn(tx: Tx): SigningKeyChanges {
  const { p } = tx;
  return {
    hasActive: async (alg) => (await tx.run(`SELECT kid FROM signing_keys WHERE alg = ${p(1)} AND state = 'active'`, [alg])).rows.length > 0,
    deactivate: async (alg, now, retireAt, kid) => {
      await tx.run(
        `UPDATE signing_keys SET state = 'published', deactivated_at = ${p(1)}, retire_at = ${p(2)} WHERE alg = ${p(3)} AND state = 'active'${kid ? ` AND kid = ${p(4)}` : ''}`,
        kid ? [now, retireAt, alg, kid] : [now, retireAt, alg],
      );
    },
    insert: async (key, now) => {
      await tx.run(
        `INSERT INTO signing_keys (kid, alg, state, public_jwk, private_key, generated_secret, created_at) VALUES (${p(1)}, ${p(2)}, 'active', ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)})`,
        [key.kid, key.alg, key.publicJwk, key.privateKey, key.generatedSecret ? 1 : 0, now],
      );
    },
  };
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { statements, Tx } from '../database/transaction';
import { Passkey } from './passkey.entity';
import { UsedPasskeyChallenge } from './used-challenge.entity';

/** The passkeys of accounts (`passkeys`) and the challenges used (`passkey_challenges_used`). */
@Injectable()
export class PasskeysRepository {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(Passkey) private readonly passkeys: Repository<Passkey>,
    @InjectRepository(UsedPasskeyChallenge) private readonly challenges: Repository<UsedPasskeyChallenge>,
  ) {}

  ofUser(userId: number): Promise<Passkey[]> {
    return this.passkeys.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  byId(id: string): Promise<Passkey | null> {
    return this.passkeys.findOneBy({ id });
  }

  /** Stores a new passkey as a statement of the caller's transaction: false when its credential id is taken already. */
  async insert(tx: Tx, passkey: Passkey): Promise<boolean> {
    const p = tx.p;
    const { rows } = await tx.run(
      `INSERT INTO passkeys (id, user_id, public_key, counter, transports, name, created_at, last_used_at)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [passkey.id, passkey.userId, passkey.publicKey, passkey.counter, passkey.transports, passkey.name, passkey.createdAt, passkey.lastUsedAt],
    );
    return rows.length === 1;
  }

  /**
   * Records a use: the counter moves forward (or stays 0 for authenticators without one) by one
   * conditional UPDATE, so two uses of one signature cannot both pass (WebAuthn §7.2 step 22).
   */
  async used(id: string, oldCounter: number, newCounter: number, now: number): Promise<boolean> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const { affected } = await sql.run(`UPDATE passkeys SET counter = ${p(1)}, last_used_at = ${p(2)} WHERE id = ${p(3)} AND counter = ${p(4)}`, [newCounter, now, id, oldCounter]);
    return affected === 1;
  }

  async rename(userId: number, id: string, name: string): Promise<boolean> {
    return ((await this.passkeys.update({ id, userId }, { name })).affected ?? 0) > 0;
  }

  /** Removes the user's passkey as a statement of the caller's transaction: false when it is not theirs (or gone). */
  async remove(tx: Tx, userId: number, id: string): Promise<boolean> {
    const { affected } = await tx.run(`DELETE FROM passkeys WHERE id = ${tx.p(1)} AND user_id = ${tx.p(2)}`, [id, userId]);
    return affected > 0;
  }

  /** Removes every passkey of the user as a statement of the caller's transaction (the way back to an old address). */
  async removeAllOfUser(tx: Tx, userId: number): Promise<number> {
    const { affected } = await tx.run(`DELETE FROM passkeys WHERE user_id = ${tx.p(1)}`, [userId]);
    return affected;
  }

  /** Takes a challenge as used: true for the one ceremony that wins, on every instance. */
  async useChallenge(challengeHash: string, expiresAt: number): Promise<boolean> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const { rows } = await sql.run(
      `INSERT INTO passkey_challenges_used (challenge_hash, expires_at) VALUES (${p(1)}, ${p(2)}) ON CONFLICT (challenge_hash) DO NOTHING RETURNING challenge_hash`,
      [challengeHash, expiresAt],
    );
    return rows.length === 1;
  }

  async purgeChallenges(now: number): Promise<void> {
    await this.challenges.createQueryBuilder().delete().where('expires_at <= :now', { now }).execute();
  }
}

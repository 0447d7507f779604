import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { statements, Tx } from '../database/transaction';
import { Passkey } from './passkey.entity';

interface PasskeyRow {
  id: string;
  user_id: number | string;
  public_key: string;
  counter: number | string;
  transports: string | null;
  name: string;
  created_at: number | string;
  last_used_at: number | string | null;
}

const PASSKEY_COLUMNS = 'id, user_id, public_key, counter, transports, name, created_at, last_used_at';

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  userId: Number(row.user_id),
  publicKey: row.public_key,
  counter: Number(row.counter),
  transports: row.transports,
  name: row.name,
  createdAt: Number(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
});

/**
 * The passkeys of accounts (`passkeys`) and the challenges used (`passkey_challenges_used`), in SQL
 * throughout: an insert and a removal are statements of the caller's transaction (Tx), and a use or a
 * challenge is decided by one conditional statement (`ON CONFLICT … RETURNING`, `WHERE counter = …`),
 * which the ORM cannot write on both engines (docs/add-a-module.md, "Data access").
 */
@Injectable()
export class PasskeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  async ofUser(userId: number): Promise<Passkey[]> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<PasskeyRow>(`SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE user_id = ${sql.p(1)} ORDER BY created_at ASC, id ASC`, [userId]);
    return rows.map(toPasskey);
  }

  async byId(id: string): Promise<Passkey | null> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<PasskeyRow>(`SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE id = ${sql.p(1)}`, [id]);
    return rows[0] ? toPasskey(rows[0]) : null;
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
    const sql = statements(this.dataSource);
    const p = sql.p;
    const { affected } = await sql.run(`UPDATE passkeys SET name = ${p(1)} WHERE id = ${p(2)} AND user_id = ${p(3)}`, [name, id, userId]);
    return affected > 0;
  }

  /** Removes the user's passkey as a statement of the caller's transaction: false when it is not theirs (or gone). */
  async remove(tx: Tx, userId: number, id: string): Promise<boolean> {
    const { affected } = await tx.run(`DELETE FROM passkeys WHERE id = ${tx.p(1)} AND user_id = ${tx.p(2)}`, [id, userId]);
    return affected > 0;
  }

  /**
   * Removes the passkey only if the user keeps another, deciding on what the transaction sees: removals of
   * one account take turns (its passkeys locked on PostgreSQL; SQLite has one writer at a time), so two
   * removals at once cannot each count the other's passkey and leave none. 'last' changes nothing.
   */
  async removeUnlessLast(tx: Tx, userId: number, id: string): Promise<'removed' | 'last' | 'not_owned'> {
    const lock = tx.p(1) === '$1' ? ' FOR UPDATE' : '';
    const { rows } = await tx.run<{ id: string }>(`SELECT id FROM passkeys WHERE user_id = ${tx.p(1)}${lock}`, [userId]);
    if (!rows.some((row) => row.id === id)) return 'not_owned';
    if (rows.length < 2) return 'last';
    return (await this.remove(tx, userId, id)) ? 'removed' : 'not_owned';
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
    const sql = statements(this.dataSource);
    await sql.run(`DELETE FROM passkey_challenges_used WHERE expires_at <= ${sql.p(1)}`, [now]);
  }
}

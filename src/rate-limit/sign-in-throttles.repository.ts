import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { authConfig } from '../config/configuration';
import { Purgeable } from '../database/purgeable';
import { statements } from '../database/transaction';

/** A counter after one more attempt was counted on it. */
export interface CountedSlot {
  key: string;
  failures: number;
  /** When its window started (epoch ms). */
  start: number;
}

interface CounterRow {
  key: string;
  failures: number | string;
  window_started_at: number | string;
}

/**
 * The sign-in and user-code counters in the database (`sign_in_throttles`), when no Redis is configured
 * or it cannot be reached. Each step is one hand-written conditional statement, so that instances racing
 * on a counter each see the count their own statement made: an upsert that counts an attempt (starting a
 * new window when the last one ended) and returns the counts, and an update that gives a slot back only
 * within the window it was taken in. The purge's DELETE is written the same way, to keep the file to one style.
 */
@Injectable()
export class SignInThrottlesRepository implements Purgeable {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
  ) {}

  /**
   * One more attempt on each counter, in one atomic upsert that returns their counts (SQLite 3.35+,
   * PostgreSQL). Give several keys in key order, so that two attempts sharing a counter lock their rows in
   * the same order on PostgreSQL.
   */
  async count(keys: string[], now: number, windowStart: number): Promise<CountedSlot[]> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const n = keys.length * 2;
    const { rows } = await sql.run<CounterRow>(
      `INSERT INTO sign_in_throttles ("key", failures, window_started_at) VALUES ${keys.map((_, i) => `(${p(2 * i + 1)}, 1, ${p(2 * i + 2)})`).join(', ')}
       ON CONFLICT ("key") DO UPDATE SET
         failures = CASE WHEN sign_in_throttles.window_started_at > ${p(n + 1)} THEN sign_in_throttles.failures + 1 ELSE 1 END,
         window_started_at = CASE WHEN sign_in_throttles.window_started_at > ${p(n + 2)} THEN sign_in_throttles.window_started_at ELSE excluded.window_started_at END
       RETURNING "key", failures, window_started_at`,
      [...keys.flatMap((key) => [key, now]), windowStart, windowStart],
    );
    return rows.map((row) => ({ key: row.key, failures: Number(row.failures), start: Number(row.window_started_at) }));
  }

  /** Gives one slot back on each counter whose window is still the one it was taken in. */
  async giveBack(slots: Array<{ key: string; start: number }>): Promise<void> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    if (slots.length === 1) {
      await sql.run(`UPDATE sign_in_throttles SET failures = failures - 1 WHERE "key" = ${p(1)} AND window_started_at = ${p(2)} AND failures > 0`, [slots[0].key, slots[0].start]);
      return;
    }
    await sql.run(
      `UPDATE sign_in_throttles SET failures = failures - 1
       WHERE failures > 0 AND (${slots.map((_, i) => `("key" = ${p(2 * i + 1)} AND window_started_at = ${p(2 * i + 2)})`).join(' OR ')})`,
      slots.flatMap((slot) => [slot.key, slot.start]),
    );
  }

  /** Makes a counter full (`failures` = `limit`) for the rest of the window it was taken in. */
  async fill(key: string, windowStart: number, limit: number): Promise<void> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    await sql.run(`UPDATE sign_in_throttles SET failures = ${p(1)} WHERE "key" = ${p(2)} AND window_started_at = ${p(3)} AND failures < ${p(4)}`, [limit, key, windowStart, limit]);
  }

  /**
   * Deletes the counters whose window has ended: they count for nothing any more. The same table holds
   * the hourly mail budgets of README.md (Your account), so a counter is kept at least an hour.
   */
  async purgeExpired(now: number): Promise<number> {
    const sql = statements(this.dataSource);
    const before = now - Math.max(this.auth.signInWindowSeconds, 3600) * 1000;
    return (await sql.run(`DELETE FROM sign_in_throttles WHERE window_started_at <= ${sql.p(1)}`, [before])).affected;
  }

  /** Clears a counter. */
  async reset(key: string): Promise<void> {
    const sql = statements(this.dataSource);
    await sql.run(`DELETE FROM sign_in_throttles WHERE "key" = ${sql.p(1)}`, [key]);
  }
}

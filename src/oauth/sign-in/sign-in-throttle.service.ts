import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { replaceControlCharacters } from '../../common/validation/no-control-characters.decorator';
import { authConfig } from '../../config/configuration';
import { normalizeEmail } from '../../users/users.service';
import { statements } from '../../database/transaction';

export interface ThrottleKeys {
  account: string;
  ip: string;
}

/**
 * Failed sign-ins counted per account and per IP in fixed windows (SIGN_IN_MAX_FAILURES per
 * SIGN_IN_WINDOW), in the database so that every instance agrees. The account key is the address as
 * typed (normalised), whether or not such an account exists, so the throttle never reveals which
 * accounts exist.
 */
@Injectable()
export class SignInThrottleService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
  ) {}

  keysFor(email: string, ip: string): ThrottleKeys {
    // The key is only a counter's name; control characters (NUL, which PostgreSQL cannot store) are
    // replaced, as no real address has any.
    const account = replaceControlCharacters(normalizeEmail(email)).slice(0, 254);
    return { account: `account:${account}`, ip: `ip:${ip}` };
  }

  /** Seconds until another attempt is allowed, or 0 when neither counter is over the limit. */
  async retryAfterSeconds(keys: ThrottleKeys, now = Date.now()): Promise<number> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<{ failures: number; window_started_at: string | number }>(
      `SELECT failures, window_started_at FROM sign_in_throttles WHERE "key" IN (${sql.p(1)}, ${sql.p(2)})`,
      [keys.account, keys.ip],
    );
    const windowMs = this.auth.signInWindowSeconds * 1000;
    let wait = 0;
    for (const row of rows) {
      const endsAt = Number(row.window_started_at) + windowMs;
      if (Number(row.failures) >= this.auth.signInMaxFailures && endsAt > now) wait = Math.max(wait, Math.ceil((endsAt - now) / 1000));
    }
    return wait;
  }

  /** One more failure on both counters; a counter whose window has ended starts a new one. */
  async recordFailure(keys: ThrottleKeys, now = Date.now()): Promise<void> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const windowStart = now - this.auth.signInWindowSeconds * 1000;
    for (const key of [keys.account, keys.ip]) {
      // One atomic upsert, so concurrent failures on several instances are all counted.
      await sql.run(
        `INSERT INTO sign_in_throttles ("key", failures, window_started_at) VALUES (${p(1)}, 1, ${p(2)})
         ON CONFLICT ("key") DO UPDATE SET
           failures = CASE WHEN sign_in_throttles.window_started_at > ${p(3)} THEN sign_in_throttles.failures + 1 ELSE 1 END,
           window_started_at = CASE WHEN sign_in_throttles.window_started_at > ${p(4)} THEN sign_in_throttles.window_started_at ELSE ${p(5)} END`,
        [key, now, windowStart, windowStart, now],
      );
    }
  }

  /**
   * A successful sign-in clears the account's counter. The IP's counter stays: one valid account must
   * not let an address go on guessing other accounts' passwords.
   */
  async recordSuccess(keys: ThrottleKeys): Promise<void> {
    const sql = statements(this.dataSource);
    await sql.run(`DELETE FROM sign_in_throttles WHERE "key" = ${sql.p(1)}`, [keys.account]);
  }
}

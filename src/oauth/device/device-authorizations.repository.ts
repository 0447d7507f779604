import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, LessThanOrEqual, Repository } from 'typeorm';
import { methodList } from '../../database/columns';
import { statements, Tx } from '../../database/transaction';
import { DeviceAuthorization } from '../entities/device-authorization.entity';
import { Purgeable } from '../../database/purgeable';

/** A new device authorization request, pending the user's decision. */
export interface NewDeviceAuthorization {
  deviceCodeHash: string;
  userCodeHash: string;
  clientId: number;
  scope: string;
  intervalSeconds: number;
  expiresAt: number;
  createdAt: number;
  /** RFC 8707: the resource the request named; null when it named none. */
  resource: string | null;
}

/**
 * The device authorization requests (`oauth_device_authorizations`, RFC 8628). Every change that must
 * happen once (a decision, a poll that counts, the redemption) is one conditional UPDATE whose
 * affected-row count says whether this request made it, so concurrent requests on any instance agree on
 * the outcome: those are SQL, with parameters, like the insert below (see its comment), and the
 * redemption is a statement of the grant's transaction (src/database/transaction.ts), like the other
 * single-use redemptions. Reads and the purge go through the ORM's repository.
 */
@Injectable()
export class DeviceAuthorizationsRepository implements Purgeable {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(DeviceAuthorization) private readonly rows: Repository<DeviceAuthorization>,
  ) {}

  /**
   * Stores a request unless its user code (or device code) is already stored; false then, nothing
   * written. Hand-written because it is `ON CONFLICT DO NOTHING` with its affected-row count, on both
   * engines: the ORM's insert throws on the unique index instead (aborting a PostgreSQL transaction), and
   * its `orIgnore()` is SQLite's `INSERT OR IGNORE`, which also swallows NOT NULL and CHECK failures.
   */
  async insert(row: NewDeviceAuthorization): Promise<boolean> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const inserted = await sql.run(
      `INSERT INTO oauth_device_authorizations
         (device_code_hash, user_code_hash, client_id, scope, status, interval_seconds, expires_at, created_at, resource)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, 'pending', ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)})
       ON CONFLICT DO NOTHING`,
      [row.deviceCodeHash, row.userCodeHash, row.clientId, row.scope, row.intervalSeconds, row.expiresAt, row.createdAt, row.resource],
    );
    return inserted.affected === 1;
  }

  findByUserCodeHash(userCodeHash: string): Promise<DeviceAuthorization | null> {
    return this.rows.findOneBy({ userCodeHash });
  }

  findByDeviceCodeHash(deviceCodeHash: string): Promise<DeviceAuthorization | null> {
    return this.rows.findOneBy({ deviceCodeHash });
  }

  /** The user's decision, taken once and only while pending and unexpired; false when it was not. */
  async decide(id: number, decision: { status: 'approved' | 'denied'; userId: number; authTime: number | null; amr: string[] | null }, now: number): Promise<boolean> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const { affected } = await sql.run(
      `UPDATE oauth_device_authorizations SET status = ${p(1)}, user_id = ${p(2)}, auth_time = ${p(3)}, amr = ${p(4)}, decided_at = ${p(5)}
       WHERE id = ${p(6)} AND status = 'pending' AND expires_at > ${p(7)}`,
      [decision.status, decision.userId, decision.authTime, methodList.to(decision.amr), now, id, now],
    );
    return affected === 1;
  }

  /** Records a poll if the interval since the last one has passed; false when this poll came too early. */
  async recordPollOnTime(id: number, now: number): Promise<boolean> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const { affected } = await sql.run(
      `UPDATE oauth_device_authorizations SET last_polled_at = ${p(1)}
       WHERE id = ${p(2)} AND status = 'pending' AND (last_polled_at IS NULL OR last_polled_at + interval_seconds * 1000 <= ${p(3)})`,
      [now, id, now],
    );
    return affected === 1;
  }

  /** RFC 8628 §3.5 `slow_down`: the interval grows by `step` seconds, for good; false when no longer pending. */
  async slowDown(id: number, step: number, now: number): Promise<boolean> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const { affected } = await sql.run(`UPDATE oauth_device_authorizations SET interval_seconds = interval_seconds + ${p(1)}, last_polled_at = ${p(2)} WHERE id = ${p(3)} AND status = 'pending'`, [
      step,
      now,
      id,
    ]);
    return affected === 1;
  }

  /** Expired requests answer only expired_token until then; gone, invalid_grant (RFC 8628 §3.5). */
  async purgeExpired(now: number): Promise<number> {
    return (await this.rows.delete({ expiresAt: LessThanOrEqual(now) })).affected ?? 0;
  }

  /**
   * The user's approved requests whose device has not yet collected its tokens become denied (a
   * password or address set): the device's next poll gets access_denied (RFC 8628 §3.5) instead of
   * tokens the new password never allowed.
   */
  async denyUnredeemedOfUser(tx: Tx, userId: number): Promise<void> {
    await tx.run(`UPDATE oauth_device_authorizations SET status = 'denied' WHERE user_id = ${tx.p(1)} AND status = 'approved' AND redeemed_at IS NULL`, [userId]);
  }

  /** The same for one client of the user (Revoke access on Connected apps): its device gets access_denied. */
  async denyUnredeemedOfUserAndClient(tx: Tx, userId: number, clientId: number): Promise<void> {
    await tx.run(
      `UPDATE oauth_device_authorizations SET status = 'denied' WHERE user_id = ${tx.p(1)} AND client_id = ${tx.p(2)} AND status = 'approved' AND redeemed_at IS NULL`,
      [userId, clientId],
    );
  }

  /**
   * Marks an approved request redeemed, inside the transaction that issues its tokens. The single use is
   * decided here (RFC 8628 §3.5): of concurrent polls, on any instance, exactly one updates the row.
   */
  async redeem(tx: Tx, id: number, now: number): Promise<boolean> {
    const redeemed = await tx.run(
      `UPDATE oauth_device_authorizations SET redeemed_at = ${tx.p(1)} WHERE id = ${tx.p(2)} AND status = 'approved' AND redeemed_at IS NULL`,
      [now, id],
    );
    return redeemed.affected === 1;
  }
}

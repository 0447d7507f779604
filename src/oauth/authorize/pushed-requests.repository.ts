import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, LessThanOrEqual, Repository } from 'typeorm';
import { statements } from '../../database/transaction';
import { PushedRequest } from '../entities/pushed-request.entity';
import { Purgeable } from '../../database/purgeable';

/**
 * The pushed authorization requests (`oauth_pushed_requests`, RFC 9126). Storing and purging go through
 * the ORM; taking one for use is a single conditional `UPDATE … RETURNING`, hand-written because its one
 * statement is what makes a `request_uri` single-use when two browsers or two instances race with it.
 */
@Injectable()
export class PushedRequestsRepository implements Purgeable {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(PushedRequest) private readonly requests: Repository<PushedRequest>,
  ) {}

  async insert(request: Omit<PushedRequest, 'usedAt'>): Promise<void> {
    await this.requests.insert({ ...request, usedAt: null });
  }

  /** Marks the request used and returns its parameters (JSON), if it is this client's, unused and unexpired; else null. */
  async take(idHash: string, clientId: number, now: number): Promise<string | null> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const { rows } = await sql.run<{ parameters: string }>(
      `UPDATE oauth_pushed_requests SET used_at = ${p(1)}
       WHERE id_hash = ${p(2)} AND client_id = ${p(3)} AND used_at IS NULL AND expires_at > ${p(4)}
       RETURNING parameters`,
      [now, idHash, clientId, now],
    );
    return rows.length === 1 ? rows[0].parameters : null;
  }

  /** A request past its expiry can no longer be used, used or not (RFC 9126 §4). */
  async purgeExpired(now: number): Promise<number> {
    return (await this.requests.delete({ expiresAt: LessThanOrEqual(now) })).affected ?? 0;
  }
}

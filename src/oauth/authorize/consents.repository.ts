import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Client } from '../../clients/client.entity';
import { Tx } from '../../database/transaction';
import { Consent } from '../entities/consent.entity';

/** One consent with the name and public id of its client, as Connected apps lists them. */
export interface ConsentOfClient {
  /** The client's row id. */
  clientRowId: number;
  /** The client's public client_id. */
  clientId: string;
  name: string;
  scope: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/**
 * The consents users gave (`oauth_consents`), one row per user, client and scope set. Reads and the
 * insert go through the ORM; the two writes that join a grant's transaction (src/database/transaction.ts)
 * are statements of its `Tx`.
 */
@Injectable()
export class ConsentsRepository {
  constructor(@InjectRepository(Consent) private readonly consents: Repository<Consent>) {}

  /** The scope sets (space-separated) this user allowed this client. */
  async scopeSets(userId: number, clientId: number): Promise<string[]> {
    const rows = await this.consents.find({ where: { userId, clientId }, select: { scope: true } });
    return rows.map((row) => row.scope);
  }

  exists(userId: number, clientId: number): Promise<boolean> {
    return this.consents.exists({ where: { userId, clientId } });
  }

  /** Two approvals racing (two tabs) both succeed: the unique constraint keeps one row. */
  async remember(userId: number, clientId: number, scope: string, now: number): Promise<void> {
    await this.consents.createQueryBuilder().insert().values({ userId, clientId, scope, createdAt: now, lastUsedAt: null }).orIgnore().execute();
  }

  /** Every consent of the user, with its client's name and public id. */
  async ofUser(userId: number): Promise<ConsentOfClient[]> {
    const rows = await this.consents
      .createQueryBuilder('cs')
      .innerJoin(Client, 'c', 'c.id = cs.client_id')
      .select(['c.id AS client_row_id', 'c.client_id AS client_id', 'c.name AS name', 'cs.scope AS scope', 'cs.created_at AS created_at', 'cs.last_used_at AS last_used_at'])
      .where('cs.user_id = :userId', { userId })
      .getRawMany<{ client_row_id: number | string; client_id: string; name: string; scope: string; created_at: number | string; last_used_at: number | string | null }>();
    return rows.map((row) => ({
      clientRowId: Number(row.client_row_id),
      clientId: row.client_id,
      name: row.name,
      scope: row.scope,
      createdAt: Number(row.created_at),
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    }));
  }

  /**
   * "Last used" of Connected apps (README.md, Your account): the last token issued, written with the
   * grant itself so that no API request ever writes.
   */
  async markUsed(tx: Tx, userId: number, clientId: number, now: number): Promise<void> {
    await tx.run(`UPDATE oauth_consents SET last_used_at = ${tx.p(1)} WHERE user_id = ${tx.p(2)} AND client_id = ${tx.p(3)}`, [now, userId, clientId]);
  }

  /** Revoke access (README.md, Your account): the next authorize asks again. */
  async forget(tx: Tx, userId: number, clientId: number): Promise<void> {
    await tx.run(`DELETE FROM oauth_consents WHERE user_id = ${tx.p(1)} AND client_id = ${tx.p(2)}`, [userId, clientId]);
  }
}

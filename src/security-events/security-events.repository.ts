import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { Tx } from '../database/transaction';
import { SecurityEvent } from './security-event.entity';

/**
 * The accounts' security events (`security_events`), through the ORM's repository; `insertIn` alone is
 * SQL, because it is a statement of the caller's transaction (src/database/transaction.ts runs a `Tx` as
 * SQL), so that an event is stored with the change it tells of.
 */
@Injectable()
export class SecurityEventsRepository {
  constructor(@InjectRepository(SecurityEvent) private readonly events: Repository<SecurityEvent>) {}

  async insert(event: Omit<SecurityEvent, 'id'>): Promise<void> {
    await this.events.insert(event);
  }

  /** The event as a statement of the caller's transaction: stored with the change it tells of, or not at all. */
  async insertIn(tx: Tx, event: Omit<SecurityEvent, 'id'>): Promise<void> {
    const p = tx.p;
    await tx.run(`INSERT INTO security_events (user_id, type, ip, details, created_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)})`, [
      event.userId,
      event.type,
      event.ip,
      event.details,
      event.createdAt,
    ]);
  }

  /** The account's newest events first (the same instant: the later one first). */
  newestOf(userId: number, limit: number): Promise<SecurityEvent[]> {
    return this.events.find({ where: { userId }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
  }

  /** Deletes the events older than `cutoff`; idempotent. */
  async deleteOlderThan(cutoff: number): Promise<number> {
    return (await this.events.delete({ createdAt: LessThan(cutoff) })).affected ?? 0;
  }
}

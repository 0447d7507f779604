import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import { redactText } from '../common/logging/logger';
import { Tx } from '../database/transaction';
import { SecurityEvent } from './security-event.entity';
import { SecurityEventsRepository } from './security-events.repository';
import { SecurityEventDetails, SecurityEventType } from '../common/security-event-types';
import { Purgeable } from '../database/purgeable';

/** How long an event is kept (README.md, Your account): the purge deletes older ones. */
export const SECURITY_EVENT_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;
/** How many events the account page shows. */
export const RECENT_SECURITY_EVENTS = 20;
/** Each detail value is cut to this length, so one event can never outgrow its column. */
const MAX_DETAIL_LENGTH = 200;

/** One event as the account page shows it. */
export interface SecurityEventView {
  type: SecurityEventType;
  at: number;
  ip: string | null;
  details: SecurityEventDetails;
}

/**
 * The account's security events (README.md, Your account): stored for 90 days and written as one structured log
 * line each, so an operator's log pipeline sees them too. Every part of the service that changes what
 * an account can do calls `record` where it happens.
 */
@Injectable()
export class SecurityEventsService implements Purgeable {
  private readonly logger = new Logger('SecurityEvent');

  constructor(
    private readonly events: SecurityEventsRepository,
    private readonly clock: Clock,
  ) {}

  async record(input: SecurityEventInput): Promise<void> {
    const event = prepare(input, this.clock.now());
    await this.events.insert(event.row);
    this.logged(event);
  }

  /**
   * The event as a statement of the caller's transaction (docs/mail.md, "The outbox": a change, its
   * event and its notice are stored together or not at all). The caller calls `logged` once it commits,
   * so the log never tells of an event that was rolled back.
   */
  async recordIn(tx: Tx, input: SecurityEventInput): Promise<PreparedSecurityEvent> {
    const event = prepare(input, this.clock.now());
    await this.events.insertIn(tx, event.row);
    return event;
  }

  /** The one structured log line of a stored event. */
  logged(event: PreparedSecurityEvent): void {
    const { row, details } = event;
    this.logger.log({ securityEvent: row.type, userId: row.userId, ip: row.ip, at: new Date(row.createdAt).toISOString(), ...details }, 'security event');
  }

  /** The account's newest events first (the same instant: the later one first). */
  async recent(userId: number, limit = RECENT_SECURITY_EVENTS): Promise<SecurityEventView[]> {
    const rows = await this.events.newestOf(userId, limit);
    return rows.map((row) => ({ type: row.type, at: row.createdAt, ip: row.ip, details: parseDetails(row.details) }));
  }

  /** Deletes events older than the retention (the purge, docs/add-a-module.md); idempotent, so several instances may run it at once. */
  async purgeExpired(now: number): Promise<number> {
    return this.events.deleteOlderThan(now - SECURITY_EVENT_RETENTION_MS);
  }
}

/** What a part of the service tells of a change. */
export interface SecurityEventInput {
  userId: number;
  type: SecurityEventType;
  ip?: string | null;
  details?: SecurityEventDetails;
  at?: number;
}

/** An event ready to store: its row, and its details for the log line. */
export interface PreparedSecurityEvent {
  row: Omit<SecurityEvent, 'id'>;
  details: SecurityEventDetails;
}

function prepare(input: SecurityEventInput, now: number): PreparedSecurityEvent {
  const details = cleanDetails(input.details);
  return {
    row: {
      userId: input.userId,
      type: input.type,
      ip: input.ip ? input.ip.slice(0, 45) : null,
      details: Object.keys(details).length > 0 ? JSON.stringify(details) : null,
      createdAt: input.at ?? now,
    },
    details,
  };
}

function cleanDetails(details: SecurityEventDetails | undefined): SecurityEventDetails {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(details ?? {})) {
    // A detail may quote text a user chose (an application's name): a secret pasted into it is masked
    // in the record and its log line alike (SECURITY.md "Secrets in logs").
    if (typeof value === 'string' && value.length > 0) clean[key] = redactText(value).slice(0, MAX_DETAIL_LENGTH);
  }
  return clean;
}

function parseDetails(value: string | null): SecurityEventDetails {
  if (!value) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null ? (parsed as SecurityEventDetails) : {};
  } catch {
    return {};
  }
}

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../common/clock';
import { mailConfig } from '../config/configuration';
import { MailDropReason, MetricsService } from '../metrics/metrics.service';
import { consoleTransport, deliveryFailure, MailTransport, smtpTransport } from './mail-transport';
import { ClaimedMail, OutboxRepository } from './outbox.repository';

/** How often each instance looks for due mails. */
export const MAIL_POLL_INTERVAL_MS = 1000;
/** How long a claimed mail is held by its sender before another may take it (longer than any attempt's time-outs). */
export const MAIL_LEASE_MS = 5 * 60_000;
/** Mails claimed per round. */
const BATCH = 20;
/** Retry after 30 s, then twice as long each time, at most an hour apart (docs/mail.md). */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3600_000);
}

/**
 * Delivers the outbox (docs/mail.md): every MAIL_POLL_INTERVAL_MS, the mails due by the Clock are
 * claimed (one sender per mail, on every instance) and handed to the mail server; a mail the server
 * does not take stays in the outbox and is due again after an exponential backoff, so none is lost
 * while the mail server is down. Started with the application, stopped on shutdown; the timer never
 * keeps the process alive.
 */
@Injectable()
export class MailSender implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MailSender');
  private readonly transport?: MailTransport;
  private timer?: NodeJS.Timeout;
  private round?: Promise<number>;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly clock: Clock,
    private readonly metrics: MetricsService,
    @Inject(mailConfig.KEY) private readonly config: ConfigType<typeof mailConfig>,
  ) {
    if (config.smtpUrl !== undefined) this.transport = smtpTransport(config.smtpUrl);
    else if (config.toConsole) this.transport = consoleTransport();
    metrics.watchOutbox(() => this.outbox.stats(this.clock.now()));
  }

  onApplicationBootstrap(): void {
    if (!this.transport) return;
    this.timer = setInterval(() => void this.deliverDue().catch((error) => this.warn('mail delivery round failed', error)), MAIL_POLL_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopLoop();
    // A round under way finishes (its mails are delivered or released for a retry) before the database closes.
    await this.round?.catch(() => undefined);
    this.transport?.close();
  }

  /** Stops the timer (at shutdown; a test that drives the rounds itself with deliverDue stops it first). */
  stopLoop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * One round: claims the mails due now and tries each once. Rounds of this instance never overlap: a
   * call during a round waits for it and then runs its own. Returns how many mails were delivered.
   */
  async deliverDue(): Promise<number> {
    while (this.round) await this.round.catch(() => undefined);
    this.round = this.runRound();
    try {
      return await this.round;
    } finally {
      this.round = undefined;
    }
  }

  private async runRound(): Promise<number> {
    if (!this.transport) return 0;
    const { mails, unreadable } = await this.outbox.claim(this.clock.now(), MAIL_LEASE_MS, BATCH);
    for (const id of unreadable) {
      // Encrypted under another KEY_ENCRYPTION_SECRET (a rotation while it waited), or altered: it can never be sent.
      await this.outbox.dropped(id);
      this.metrics.mailDropped('unreadable');
      this.logger.warn(`mail ${id} dropped (unreadable): its body does not open with this KEY_ENCRYPTION_SECRET`);
    }
    let delivered = 0;
    for (const mail of mails) {
      try {
        await this.transport.send(mail, this.config.from);
      } catch (error) {
        await this.notDelivered(mail, error);
        continue;
      }
      await this.outbox.delivered(mail.id);
      this.metrics.mailDelivered();
      delivered++;
    }
    return delivered;
  }

  /**
   * A failed attempt (docs/mail.md): a permanent refusal drops the mail at once; a temporary one is
   * due again after the backoff, but never later than MAIL_RETRY_HOURS after the mail was written, and
   * a failure at or past that time drops it. The log names the mail by its id, never by its address.
   */
  private async notDelivered(mail: ClaimedMail, error: unknown): Promise<void> {
    const failure = deliveryFailure(error);
    const now = this.clock.now();
    const deadline = mail.createdAt + this.config.retryHours * 3600_000;
    const drop: MailDropReason | null = failure.permanent ? 'refused' : now >= deadline ? 'expired' : null;
    if (drop) {
      await this.outbox.dropped(mail.id);
      this.metrics.mailDropped(drop);
      this.logger.warn(`mail ${mail.id} dropped (${drop}) after ${mail.attempts} attempt(s): ${failure.description}`);
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    await this.outbox.failed(mail.id, Math.min(now + retryDelayMs(mail.attempts), deadline), reason);
    this.metrics.mailFailed();
    this.logger.warn(`mail ${mail.id} not delivered (attempt ${mail.attempts}), retried later: ${failure.description}`);
  }

  private warn(message: string, error: unknown): void {
    this.logger.warn(`${message}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

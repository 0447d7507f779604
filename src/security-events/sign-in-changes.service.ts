import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { Language } from '../common/i18n/language';
import { Mailer } from '../mail/mailer.service';
import { SignInChange } from '../mail/mail-messages';
import { Tx } from '../database/transaction';
import { Mail } from '../mail/outbox.repository';
import { SecurityEventInput, SecurityEventsService } from './security-events.service';

/** Who made a change to an account: their address, for the event, and their language, for the notice. */
export interface ChangedBy {
  ip: string;
  language: Language;
}

/**
 * A change to how an account signs in (docs/second-factor.md): a passkey added or removed, the
 * authenticator app turned on or off, a recovery code used. Each is a security event and a notice
 * mailed to the account's address, in the language of whoever made the change, so that an owner whose
 * session was borrowed learns of it from a channel the borrower does not hold. The passkey's name goes
 * into the event (the owner reads it on /account), never into the mail (it is the borrower's text).
 */
@Injectable()
export class SignInChanges {
  constructor(
    private readonly events: SecurityEventsService,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
  ) {}

  /**
   * The event and the notice of a change, made before the change's transaction: rendering the mail
   * reads its templates, and a SQLite transaction awaits no I/O (src/database/transaction.ts).
   */
  prepare(account: { id: number; email: string; name: string }, change: SignInChange, by: ChangedBy, passkey?: string): PreparedSignInChange {
    const at = this.clock.now();
    const notice = this.mailer.enabled
      ? this.mailer.compose('sign_in_changed', by.language, account.email, {
          name: account.name,
          change,
          securityUrl: this.mailer.link('/account/security'),
          resetUrl: this.mailer.link('/account/forgot-password'),
        })
      : null;
    return { event: { userId: account.id, type: change, ip: by.ip, at, details: passkey ? { passkey } : undefined }, notice, at };
  }

  /**
   * Writes the event and queues the notice as statements of the change's own transaction
   * (docs/mail.md, "The outbox"): a change that is stored always has both, a change rolled
   * back has neither. Returns what to call once the transaction has committed (the event's log line).
   */
  async write(tx: Tx, prepared: PreparedSignInChange): Promise<() => void> {
    const event = await this.events.recordIn(tx, prepared.event);
    if (prepared.notice) await this.mailer.enqueue(tx, prepared.notice, prepared.at);
    return () => this.events.logged(event);
  }
}

/** A change's event and notice, rendered, waiting for the change's transaction. */
export interface PreparedSignInChange {
  event: SecurityEventInput;
  notice: Mail | null;
  at: number;
}

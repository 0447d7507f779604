import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { Language } from '../common/i18n/language';
import { Mailer } from '../mail/mailer.service';
import { SignInChange } from '../mail/mail-messages';
import { SecurityEventsService } from './security-events.service';

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

  async record(account: { id: number; email: string; name: string }, change: SignInChange, by: ChangedBy, passkey?: string): Promise<void> {
    const at = this.clock.now();
    await this.events.record({ userId: account.id, type: change, ip: by.ip, at, details: passkey ? { passkey } : undefined });
    if (!this.mailer.enabled) return;
    const notice = this.mailer.compose('sign_in_changed', by.language, account.email, {
      name: account.name,
      change,
      securityUrl: this.mailer.link('/account/security'),
      resetUrl: this.mailer.link('/account/forgot-password'),
    });
    await this.mailer.send(notice, at);
  }
}

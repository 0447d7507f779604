import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { Language } from '../../common/i18n/language';
import { canonicalEmail } from '../../common/text/email-address';
import { hasControlCharacters } from '../../common/validation/no-control-characters.decorator';
import { mailConfig } from '../../config/configuration';
import { inTransaction } from '../../database/transaction';
import { durationWords } from '../../mail/mail-messages';
import { Mailer } from '../../mail/mailer.service';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { PasswordHasher } from '../../users/password-hasher';
import { passwordProblem } from '../../users/password-rules';
import { UsersRepository } from '../../users/users.repository';
import type { SignUpProblem, Unavailable } from '../../web/outcomes';
import { MailBudget } from './mail-budget.service';
import { MailLinkGuesses } from './mail-link-guesses.service';
import { mailTokenHash, newMailToken } from './mail-tokens';
import { PendingRegistrationsRepository } from './pending-registrations.repository';

export type SignUpOutcome = { ok: true; email: string } | { ok: false; problems: SignUpProblem[]; name: string; email: string };

/** What a link's token turned out to be; `throttled` when this IP guessed too many (nothing was looked up). */
export type LinkCheck = { kind: 'valid' } | { kind: 'invalid' } | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * Sign-up with a confirmed address (README.md, Your account; SECURITY.md, "Account enumeration" and
 * "Pre-registering someone else's address"). A sign-up is only a pending registration until the link
 * mailed to its address is used: nothing can sign in with it, and a new sign-up for the address replaces
 * it. The answer never depends on whether the address has an account: its owner is mailed instead, and
 * both paths hash the password, write in one transaction and answer the same page.
 */
@Injectable()
export class SignUpService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pending: PendingRegistrationsRepository,
    private readonly users: UsersRepository,
    private readonly mailer: Mailer,
    private readonly events: SecurityEventsService,
    private readonly guesses: MailLinkGuesses,
    private readonly budget: MailBudget,
    private readonly clock: Clock,
    @Inject(mailConfig.KEY) private readonly config: ConfigType<typeof mailConfig>,
  ) {}

  /** Why the sign-up pages are not there, or null when they are. */
  unavailable(): Unavailable | null {
    if (this.config.signUp === 'closed') return 'sign_up_closed';
    return this.mailer.enabled ? null : 'mail_off';
  }

  async signUp(form: Record<string, unknown>, language: Language, ip: string): Promise<SignUpOutcome> {
    const name = text(form.name).trim();
    const typed = text(form.email).trim();
    const password = text(form.password);
    const problems: SignUpProblem[] = [];
    if (name === '') problems.push({ field: 'name', problem: 'missing' });
    else if (name.length > 200) problems.push({ field: 'name', problem: 'too_long' });
    else if (hasControlCharacters(name)) problems.push({ field: 'name', problem: 'invalid' });
    // One mailbox, one address (src/common/text/email-address.ts): the canonical form is what is stored,
    // budgeted and compared, so `BOB@EXAMPLE.com` reaches the owner of `bob@example.com` as "an account exists".
    const canonical = canonicalEmail(typed);
    if (!canonical.ok) problems.push({ field: 'email', problem: canonical.problem });
    const weak = passwordProblem(password, { email: canonical.ok ? canonical.email : typed, name });
    if (weak) problems.push({ field: 'password', problem: weak });
    if (problems.length > 0 || !canonical.ok) return { ok: false, problems, name, email: typed };

    const email = canonical.email;
    // Past the address's or the IP's mail budget: the same answer, nothing written, no mail. The hash is
    // still computed, so the answer takes as long.
    const withinBudget = await this.budget.take(email, ip);
    // The slow hash and the rendering happen before the transaction, for an address with or without an account alike.
    const passwordHash = await PasswordHasher.hash(password);
    const { token, hash } = newMailToken();
    if (!withinBudget) return { ok: true, email };
    const now = this.clock.now();
    const confirm = this.mailer.compose('confirm_sign_up', language, email, {
      confirmUrl: this.mailer.link('/account/confirm-email', { token }),
      validFor: durationWords(this.config.emailTokenTtlSeconds, language),
    });
    const exists = this.mailer.compose('account_exists', language, email, {
      signInUrl: this.mailer.link('/oauth/sign-in', { return_to: '/account' }),
      resetUrl: this.mailer.link('/account/forgot-password'),
    });
    await inTransaction(this.dataSource, async (tx) => {
      if ((await this.users.idByEmail(tx, email)) !== null) {
        await this.mailer.enqueue(tx, exists, now);
        return;
      }
      await this.pending.replace(tx, { email, name, passwordHash, tokenHash: hash, expiresAt: now + this.config.emailTokenTtlSeconds * 1000, createdAt: now });
      await this.mailer.enqueue(tx, confirm, now);
    });
    return { ok: true, email };
  }

  /** The page behind the link (GET): whether its token is waiting. Nothing changes. */
  async check(token: unknown, ip: string): Promise<LinkCheck> {
    return this.guesses.guess(ip, async () => {
      const hash = mailTokenHash(token);
      return hash !== null && (await this.pending.isValid(hash, this.clock.now()));
    });
  }

  /** The button (POST): creates the account of a waiting, unexpired sign-up, once. */
  async confirm(token: unknown, ip: string): Promise<LinkCheck> {
    let created: { id: number; email: string } | null = null;
    const outcome = await this.guesses.guess(ip, async () => {
      const hash = mailTokenHash(token);
      if (hash === null) return false;
      const now = this.clock.now();
      created = await inTransaction(this.dataSource, async (tx) => {
        const registration = await this.pending.redeem(tx, hash, now);
        if (!registration) return null;
        // An account made meanwhile for the address (the CLI) keeps it; the sign-up is used up either way.
        const id = await this.users.insertConfirmed(tx, { email: registration.email, name: registration.name, passwordHash: registration.passwordHash, createdAt: now });
        return id === null ? null : { id, email: registration.email };
      });
      return created !== null;
    });
    const account = created as { id: number; email: string } | null;
    if (account) await this.events.record({ userId: account.id, type: 'account_created', ip, at: this.clock.now() });
    return outcome;
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

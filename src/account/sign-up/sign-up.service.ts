import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../common/clock';
import { Language } from '../../common/i18n/language';
import { canonicalEmail } from '../../common/text/email-address';
import { hasControlCharacters } from '../../common/validation/no-control-characters.decorator';
import { mailConfig } from '../../config/configuration';
import { Transactions } from '../../database/transaction';
import { durationWords } from '../../mail/mail-messages';
import { Mailer } from '../../mail/mailer.service';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { PasswordHasher } from '../../users/password-hasher';
import { passwordProblem } from '../../users/password-rules';
import { SignInThrottleService } from '../../rate-limit/sign-in-throttle.service';
import { UsersRepository } from '../../users/users.repository';
import type { SignUpProblem, Unavailable } from './sign-up.outcomes';
import type { LinkCheck } from '../mail-links/link-check';
import { MailBudget } from '../mail-links/mail-budget.service';
import { MailLinkGuesses } from '../mail-links/mail-link-guesses.service';
import { mailTokenHash, newMailToken } from '../mail-links/mail-tokens';
import { PendingRegistrationsRepository, WaitingRegistration } from './pending-registrations.repository';
import { ConfirmSignUpForm, SignUpForm } from './sign-up.form';

export type SignUpOutcome = { ok: true; email: string } | { ok: false; problems: SignUpProblem[]; name: string; email: string };

/**
 * The button's answer: the link's, or `wrong_password` when the password is not the one chosen in the
 * link's sign-up (nothing changed; counted like a failed sign-in), or `throttled` past those failures.
 */
export type ConfirmOutcome = LinkCheck | { kind: 'wrong_password' };

/**
 * Sign-up with a confirmed address (README.md, Your account; SECURITY.md, "Account enumeration" and
 * "Pre-registering someone else's address"). A sign-up is only a pending registration until the link
 * mailed to its address is used together with the password chosen in that sign-up: nothing can sign in
 * with it, and the owner of a mailbox who presses the button of a stranger's sign-up creates nothing,
 * since they do not know the stranger's password. Each sign-up of an address keeps its own link;
 * confirming one retires the others. The answer never depends on whether the address has an account:
 * its owner is mailed instead, and both paths hash the password, write in one transaction and answer
 * the same page.
 */
@Injectable()
export class SignUpService {
  constructor(
    private readonly transactions: Transactions,
    private readonly pending: PendingRegistrationsRepository,
    private readonly users: UsersRepository,
    private readonly mailer: Mailer,
    private readonly events: SecurityEventsService,
    private readonly guesses: MailLinkGuesses,
    private readonly budget: MailBudget,
    private readonly throttle: SignInThrottleService,
    private readonly clock: Clock,
    @Inject(mailConfig.KEY) private readonly config: ConfigType<typeof mailConfig>,
  ) {}

  /** Why the sign-up pages are not there, or null when they are. */
  unavailable(): Unavailable | null {
    if (this.config.signUp === 'closed') return 'sign_up_closed';
    return this.mailer.enabled ? null : 'mail_off';
  }

  async signUp(form: SignUpForm, language: Language, ip: string): Promise<SignUpOutcome> {
    const name = (form.name ?? '').trim();
    const typed = (form.email ?? '').trim();
    const password = form.password ?? '';
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
    await this.transactions.run(async (tx) => {
      if ((await this.users.idByEmail(tx, email)) !== null) {
        await this.mailer.enqueue(tx, exists, now);
        return;
      }
      await this.pending.add(tx, { email, name, passwordHash, tokenHash: hash, expiresAt: now + this.config.emailTokenTtlSeconds * 1000, createdAt: now });
      await this.mailer.enqueue(tx, confirm, now);
    });
    return { ok: true, email };
  }

  /** The page behind the link (GET): whether its token is waiting. Nothing changes. */
  async check(token: unknown, ip: string): Promise<LinkCheck> {
    return this.guesses.guess(ip, async () => {
      const hash = mailTokenHash(token);
      return hash !== null && (await this.pending.find(hash, this.clock.now())) !== null;
    });
  }

  /**
   * The button (POST, fields `token` and `password`): creates the account of a waiting, unexpired
   * sign-up, once, when the password is the one chosen in that sign-up, and retires the address's other
   * sign-ups. The password check is counted on the address's and the IP's sign-in counters, as a sign-in
   * is (SECURITY.md, "Password guessing"): a wrong one keeps its slot, past SIGN_IN_MAX_FAILURES nothing
   * is checked.
   */
  async confirm(form: ConfirmSignUpForm, ip: string): Promise<ConfirmOutcome> {
    const hash = mailTokenHash(form.token);
    let waiting: WaitingRegistration | null = null;
    const link = await this.guesses.guess(ip, async () => {
      waiting = hash === null ? null : await this.pending.find(hash, this.clock.now());
      return waiting !== null;
    });
    const registration = waiting as WaitingRegistration | null;
    if (link.kind !== 'valid' || registration === null || hash === null) return link;

    const keys = this.throttle.keysFor(registration.email, ip);
    const reservation = await this.throttle.reserve(keys.account, keys.ip, this.clock.now());
    if (!reservation.allowed) return { kind: 'throttled', retryAfterSeconds: reservation.retryAfterSeconds };
    if (!(await PasswordHasher.verify(form.password ?? '', registration.passwordHash))) return { kind: 'wrong_password' };
    await this.throttle.succeeded(reservation);

    const now = this.clock.now();
    const created = await this.transactions.run(async (tx) => {
      const redeemed = await this.pending.redeem(tx, hash, now);
      if (!redeemed) return null;
      await this.pending.retireAll(tx, redeemed.email);
      // An account made meanwhile for the address (the CLI) keeps it; the sign-up is used up either way.
      const id = await this.users.insertConfirmed(tx, { email: redeemed.email, name: redeemed.name, passwordHash: redeemed.passwordHash, createdAt: now });
      return id === null ? null : { id, email: redeemed.email };
    });
    // Confirmed meanwhile by another press of the button (or another sign-up of the address): the link is used.
    if (!created) return { kind: 'invalid' };
    await this.events.record({ userId: created.id, type: 'account_created', ip, at: this.clock.now() });
    return { kind: 'valid' };
  }
}

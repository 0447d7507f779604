import type { SecurityProblem } from '../../web/outcomes';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { canonicalEmail } from '../../common/text/email-address';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { Language } from '../../common/i18n/language';
import { mailConfig } from '../../config/configuration';
import { inTransaction } from '../../database/transaction';
import { durationWords } from '../../mail/mail-messages';
import { Mailer } from '../../mail/mailer.service';
import { SignInThrottleService } from '../../rate-limit/sign-in-throttle.service';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { PasswordHasher } from '../../users/password-hasher';
import { passwordProblem } from '../../users/password-rules';
import { User } from '../../users/user.entity';
import { UsersRepository } from '../../users/users.repository';
import { AccountMailTokensRepository, TokenHolder } from '../password/account-mail-tokens.repository';
import { MailBudget } from '../sign-up/mail-budget.service';
import { MailLinkGuesses } from '../sign-up/mail-link-guesses.service';
import { mailTokenHash, newMailToken } from '../sign-up/mail-tokens';
import { LinkCheck } from '../sign-up/sign-up.service';

/** Why a form of the security page changed nothing. */
export type { SecurityProblem };

/**
 * `/account/security` (README.md, Your account): change the password (the current one checked as a
 * sign-in is, throttled alike; the account's other sessions end), and change the address (the current
 * password checked; a link to the new address, whose POST alone makes the change and tells the old one).
 */
@Injectable()
export class AccountSecurityService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tokens: AccountMailTokensRepository,
    private readonly users: UsersRepository,
    private readonly mailer: Mailer,
    private readonly events: SecurityEventsService,
    private readonly throttle: SignInThrottleService,
    private readonly guesses: MailLinkGuesses,
    private readonly budget: MailBudget,
    private readonly clock: Clock,
    @Inject(mailConfig.KEY) private readonly config: ConfigType<typeof mailConfig>,
  ) {}

  get mailEnabled(): boolean {
    return this.mailer.enabled;
  }

  /** Changes the password; returns the instant from which the account's sessions are valid (the caller signs this browser in again). */
  async changePassword(user: User, form: Record<string, unknown>, ip: string, language: Language): Promise<{ ok: true; at: number } | { ok: false; problem: SecurityProblem }> {
    const checked = await this.checkPassword(user, form.current_password, ip);
    if (checked) return { ok: false, problem: checked };
    const chosen = typeof form.new_password === 'string' ? form.new_password : '';
    const weak = passwordProblem(chosen, user);
    if (weak) return { ok: false, problem: { kind: 'weak', problem: weak } };
    const passwordHash = await PasswordHasher.hash(chosen);
    const now = this.clock.now();
    const notice = this.mailer.enabled ? this.mailer.compose('password_changed', language, user.email, { name: user.name, resetUrl: this.mailer.link('/account/forgot-password') }) : null;
    await inTransaction(this.dataSource, async (tx) => {
      await this.tokens.setPassword(tx, user.id, passwordHash, now);
      await this.tokens.retire(tx, user.id, 'reset_password', now);
      if (notice) await this.mailer.enqueue(tx, notice, now);
    });
    await this.events.record({ userId: user.id, type: 'password_changed', ip, at: now });
    return { ok: true, at: now };
  }

  /** Mails a link to the new address (the owner of an address that has an account is told so instead). */
  async requestEmailChange(user: User, form: Record<string, unknown>, ip: string, language: Language): Promise<{ ok: true; newEmail: string } | { ok: false; problem: SecurityProblem }> {
    // The canonical form (src/common/text/email-address.ts) is what is compared, budgeted and stored.
    const canonical = canonicalEmail(typeof form.new_email === 'string' ? form.new_email : '');
    if (!canonical.ok) return { ok: false, problem: { kind: 'invalid_email', problem: canonical.problem } };
    const newEmail = canonical.email;
    if (newEmail === user.email) return { ok: false, problem: { kind: 'same_email' } };
    const checked = await this.checkPassword(user, form.current_password, ip);
    if (checked) return { ok: false, problem: checked };
    // Past the new address's or the IP's mail budget: the same answer, no mail.
    if (!(await this.budget.take(newEmail, ip))) return { ok: true, newEmail };
    const { token, hash } = newMailToken();
    const now = this.clock.now();
    const confirm = this.mailer.compose('confirm_new_email', language, newEmail, {
      confirmUrl: this.mailer.link('/account/confirm-new-email', { token }),
      validFor: durationWords(this.config.emailTokenTtlSeconds, language),
    });
    const exists = this.mailer.compose('account_exists', language, newEmail, {
      signInUrl: this.mailer.link('/oauth/sign-in', { return_to: '/account' }),
      resetUrl: this.mailer.link('/account/forgot-password'),
    });
    await inTransaction(this.dataSource, async (tx) => {
      if ((await this.users.idByEmail(tx, newEmail)) !== null) return this.mailer.enqueue(tx, exists, now);
      await this.tokens.insert(tx, { userId: user.id, purpose: 'change_email', tokenHash: hash, newEmail, expiresAt: now + this.config.emailTokenTtlSeconds * 1000, createdAt: now });
      await this.mailer.enqueue(tx, confirm, now);
    });
    return { ok: true, newEmail };
  }

  async checkEmailChange(token: unknown, ip: string): Promise<LinkCheck> {
    return this.guesses.guess(ip, async () => (await this.holderOf(token)) !== null);
  }

  /** The POST behind the link: the address changes, once; the old address is told. */
  async confirmEmailChange(token: unknown, ip: string, language: Language): Promise<LinkCheck> {
    let holder: TokenHolder | null = null;
    const check = await this.guesses.guess(ip, async () => (holder = await this.holderOf(token)) !== null);
    const account = holder as TokenHolder | null;
    if (check.kind !== 'valid' || !account?.newEmail) return check;
    const newEmail = account.newEmail;
    const now = this.clock.now();
    const notice = this.mailer.compose('email_changed', language, account.email, { name: account.name, newEmail, resetUrl: this.mailer.link('/account/forgot-password') });
    const changed = await inTransaction(this.dataSource, async (tx) => {
      const used = await this.tokens.use(tx, mailTokenHash(token)!, 'change_email', now);
      if (!used || !(await this.tokens.setEmail(tx, used.userId, newEmail))) return false;
      await this.tokens.retire(tx, used.userId, 'change_email', now);
      await this.mailer.enqueue(tx, notice, now);
      return true;
    });
    if (!changed) return { kind: 'invalid' };
    await this.events.record({ userId: account.userId, type: 'email_changed', ip, at: now });
    return { kind: 'valid' };
  }

  /** The current password, checked like a sign-in: a slot on the account's and the IP's counters first. Null when right. */
  async checkPassword(user: User, password: unknown, ip: string): Promise<SecurityProblem | null> {
    const keys = this.throttle.keysFor(user.email, ip);
    const reservation = await this.throttle.reserve(keys.account, keys.ip, this.clock.now());
    if (!reservation.allowed) return { kind: 'throttled', retryAfterSeconds: reservation.retryAfterSeconds };
    const ok = typeof password === 'string' && (await PasswordHasher.verify(password, user.passwordHash));
    if (!ok) {
      await this.events.record({ userId: user.id, type: 'sign_in_failed', ip, at: this.clock.now() });
      return { kind: 'wrong_password' };
    }
    await this.throttle.succeeded(reservation);
    return null;
  }

  private async holderOf(token: unknown): Promise<TokenHolder | null> {
    const hash = mailTokenHash(token);
    return hash === null ? null : this.tokens.holder(hash, 'change_email', this.clock.now());
  }
}

import { setTimeout as delay } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../common/clock';
import { Language } from '../../common/i18n/language';
import { canonicalEmail, EmailProblem } from '../../common/text/email-address';
import { mailConfig } from '../../config/configuration';
import { Transactions } from '../../database/transaction';
import { durationWords } from '../../mail/mail-messages';
import { Mailer } from '../../mail/mailer.service';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { PasswordHasher } from '../../users/password-hasher';
import { PasswordProblem, passwordProblem } from '../../users/password-rules';
import { UsersService } from '../../users/users.service';
import { MailBudget } from '../mail-links/mail-budget.service';
import { MailLinkGuesses } from '../mail-links/mail-link-guesses.service';
import { mailTokenHash, newMailToken } from '../mail-links/mail-tokens';
import type { LinkCheck } from '../mail-links/link-check';
import { AccountMailTokensRepository, TokenHolder } from './account-mail-tokens.repository';
import { WaysInService } from './ways-in.service';
import { AccessTokenCache } from '../../auth/access-token-cache';

export type ResetOutcome = LinkCheck | { kind: 'weak'; problem: PasswordProblem };

/**
 * The least time an accepted address is answered in, with or without an account (SECURITY.md, "Account
 * enumeration by forgot password"): writing the link and its mail took 0.6 ms more than finding no account
 * on SQLite and 1.4 ms more on PostgreSQL, and both now end on this wait instead.
 */
export const FORGOT_PASSWORD_ANSWER_MS = 100;

/**
 * Forgot password (README.md, Your account): the same answer for every address; the account's owner gets
 * a link (PASSWORD_RESET_TTL, single use) to a page that sets a new password, which ends every session of
 * the account, is a security event and is told to the address by a notice.
 */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly transactions: Transactions,
    private readonly tokens: AccountMailTokensRepository,
    private readonly users: UsersService,
    private readonly mailer: Mailer,
    private readonly events: SecurityEventsService,
    private readonly guesses: MailLinkGuesses,
    private readonly budget: MailBudget,
    private readonly waysIn: WaysInService,
    private readonly tokenCache: AccessTokenCache,
    private readonly clock: Clock,
    @Inject(mailConfig.KEY) private readonly config: ConfigType<typeof mailConfig>,
  ) {}

  get enabled(): boolean {
    return this.mailer.enabled;
  }

  /**
   * `POST /account/forgot-password`: why the value is not an address (said on the form); otherwise the
   * address in its canonical form, the same answer whether or not it has an account. The budget counts
   * the canonical form, so no spelling of one mailbox earns it more than MAIL_MAX_PER_HOUR mails.
   */
  async request(typed: unknown, language: Language, ip: string): Promise<{ ok: true; email: string } | { ok: false; problem: EmailProblem }> {
    const canonical = canonicalEmail(typeof typed === 'string' ? typed : '');
    if (!canonical.ok) return canonical;
    const { email } = canonical;
    const answer = delay(FORGOT_PASSWORD_ANSWER_MS);
    await this.issueLink(email, language, ip);
    await answer;
    return { ok: true, email };
  }

  /** The link and its mail, for an address with an account and within its budget; nothing otherwise. */
  private async issueLink(email: string, language: Language, ip: string): Promise<void> {
    // Counted whether or not the address has an account; past a budget the same answer and no mail.
    if (!(await this.budget.take(email, ip))) return;
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const { token, hash } = newMailToken();
    const now = this.clock.now();
    const mail = this.mailer.compose('reset_password', language, user.email, {
      name: user.name,
      resetUrl: this.mailer.link('/account/reset-password', { token }),
      validFor: durationWords(this.config.passwordResetTtlSeconds, language),
    });
    await this.transactions.run(async (tx) => {
      await this.tokens.insert(tx, { userId: user.id, purpose: 'reset_password', tokenHash: hash, expiresAt: now + this.config.passwordResetTtlSeconds * 1000, createdAt: now });
      await this.mailer.enqueue(tx, mail, now);
    });
  }

  /** The page of the link (GET): whether its token is waiting. Nothing changes. */
  async check(token: unknown, ip: string): Promise<LinkCheck> {
    return this.guesses.guess(ip, async () => (await this.holderOf(token)) !== null);
  }

  /** `POST /account/reset-password`: the new password, checked against the rules, then set once. */
  async reset(token: unknown, password: unknown, language: Language, ip: string): Promise<ResetOutcome> {
    let holder: TokenHolder | null = null;
    const check = await this.guesses.guess(ip, async () => (holder = await this.holderOf(token)) !== null);
    const account = holder as TokenHolder | null;
    if (check.kind !== 'valid' || !account) return check;
    const chosen = typeof password === 'string' ? password : '';
    const weak = passwordProblem(chosen, account);
    if (weak) return { kind: 'weak', problem: weak };

    const passwordHash = await PasswordHasher.hash(chosen);
    const now = this.clock.now();
    const notice = this.mailer.compose('password_changed', language, account.email, { name: account.name, resetUrl: this.mailer.link('/account/forgot-password') });
    const done = await this.transactions.run(async (tx) => {
      const used = await this.tokens.use(tx, mailTokenHash(token)!, 'reset_password', now);
      if (!used) return false;
      // Every session of the account, this browser's too: the person signs in again with the new password.
      await this.tokens.setPassword(tx, used.userId, passwordHash, now);
      // Every other way in that came before: mailed links of every kind (a stranger's pending change of
      // address among them), tokens of every application, codes and device requests not yet redeemed.
      await this.waysIn.endAll(tx, used.userId, now);
      await this.mailer.enqueue(tx, notice, now);
      return true;
    });
    if (!done) return { kind: 'invalid' };
    this.tokenCache.revoked();
    await this.events.record({ userId: account.userId, type: 'password_reset', ip, at: now });
    return { kind: 'valid' };
  }

  private async holderOf(token: unknown): Promise<TokenHolder | null> {
    const hash = mailTokenHash(token);
    return hash === null ? null : this.tokens.holder(hash, 'reset_password', this.clock.now());
  }
}

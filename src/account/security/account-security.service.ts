import type { SecurityProblem } from './account-security.outcomes';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { canonicalEmail } from '../../common/text/email-address';
import { Clock } from '../../common/clock';
import { Language } from '../../common/i18n/language';
import { mailConfig } from '../../config/configuration';
import { Transactions } from '../../database/transaction';
import { durationWords, maskEmail } from '../../mail/mail-messages';
import { Mailer } from '../../mail/mailer.service';
import { SignInThrottleService } from '../../rate-limit/sign-in-throttle.service';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { PasswordHasher } from '../../users/password-hasher';
import { passwordProblem } from '../../users/password-rules';
import { User } from '../../users/user.entity';
import { UsersRepository } from '../../users/users.repository';
import { PasskeysService } from '../../passkeys/passkeys.service';
import { SecondFactorService } from '../../second-factor/second-factor.service';
import { AccountMailTokenPurpose } from '../password/account-mail-token.entity';
import { AccountMailTokensRepository, TokenHolder } from '../password/account-mail-tokens.repository';
import { MailBudget } from '../mail-links/mail-budget.service';
import { MailLinkGuesses } from '../mail-links/mail-link-guesses.service';
import { mailTokenHash, newMailToken } from '../mail-links/mail-tokens';
import type { LinkCheck } from '../mail-links/link-check';
import { WaysInService } from '../password/ways-in.service';
import { AccessTokenCache } from '../../auth/access-token-cache';
import { ChangeEmailForm, ChangePasswordForm } from './security.form';

/**
 * How long the way back mailed to the old address works (SECURITY.md, "Taking over an account through a
 * change of password or address"): a week, as the owner of an address that was taken away may not read
 * that mailbox every day, or until the account's next password or address, which retires it as every
 * mailed link; the link only ever puts back the address it was mailed to.
 */
export const RESTORE_EMAIL_TTL_SECONDS = 7 * 86400;

/** Why a form of the security page changed nothing. */
export type { SecurityProblem };

/**
 * `/account/security` (README.md, Your account): change the password (the current one checked as a
 * sign-in is, throttled alike; the account's other sessions end), and change the address (the current
 * password checked; a link to the new address, whose POST alone makes the change; the current address is
 * told at once, with a link that cancels the change, and once it is made, with a way back). Every change
 * ends every way in that came before it (WaysInService).
 */
@Injectable()
export class AccountSecurityService {
  constructor(
    private readonly transactions: Transactions,
    private readonly tokens: AccountMailTokensRepository,
    private readonly users: UsersRepository,
    private readonly mailer: Mailer,
    private readonly events: SecurityEventsService,
    private readonly throttle: SignInThrottleService,
    private readonly guesses: MailLinkGuesses,
    private readonly budget: MailBudget,
    private readonly waysIn: WaysInService,
    private readonly passkeys: PasskeysService,
    private readonly secondFactor: SecondFactorService,
    private readonly tokenCache: AccessTokenCache,
    private readonly clock: Clock,
    @Inject(mailConfig.KEY) private readonly config: ConfigType<typeof mailConfig>,
  ) {}

  get mailEnabled(): boolean {
    return this.mailer.enabled;
  }

  /** Changes the password; returns the instant from which the account's sessions are valid (the caller signs this browser in again). */
  async changePassword(user: User, form: ChangePasswordForm, ip: string, language: Language): Promise<{ ok: true; at: number } | { ok: false; problem: SecurityProblem }> {
    const checked = await this.checkPassword(user, form.current_password, ip);
    if (checked) return { ok: false, problem: checked };
    const chosen = form.new_password ?? '';
    const weak = passwordProblem(chosen, user);
    if (weak) return { ok: false, problem: { kind: 'weak', problem: weak } };
    const passwordHash = await PasswordHasher.hash(chosen);
    const now = this.clock.now();
    const notice = this.mailer.enabled ? this.mailer.compose('password_changed', language, user.email, { name: user.name, resetUrl: this.mailer.link('/account/forgot-password') }) : null;
    await this.transactions.run(async (tx) => {
      await this.tokens.setPassword(tx, user.id, passwordHash, now);
      await this.waysIn.endAll(tx, user.id, now);
      if (notice) await this.mailer.enqueue(tx, notice, now);
    });
    this.tokenCache.revoked();
    await this.events.record({ userId: user.id, type: 'password_changed', ip, at: now });
    return { ok: true, at: now };
  }

  /** Mails a link to the new address (the owner of an address that has an account is told so instead). */
  async requestEmailChange(user: User, form: ChangeEmailForm, ip: string, language: Language): Promise<{ ok: true; newEmail: string } | { ok: false; problem: SecurityProblem }> {
    // The canonical form (src/common/text/email-address.ts) is what is compared, budgeted and stored.
    const canonical = canonicalEmail(form.new_email ?? '');
    if (!canonical.ok) return { ok: false, problem: { kind: 'invalid_email', problem: canonical.problem } };
    const newEmail = canonical.email;
    if (newEmail === user.email) return { ok: false, problem: { kind: 'same_email' } };
    const checked = await this.checkPassword(user, form.current_password, ip);
    if (checked) return { ok: false, problem: checked };
    // Past the new address's or the IP's mail budget: the same answer, no mail.
    if (!(await this.budget.take(newEmail, ip))) return { ok: true, newEmail };
    const { token, hash } = newMailToken();
    const cancel = newMailToken();
    const now = this.clock.now();
    const validFor = durationWords(this.config.emailTokenTtlSeconds, language);
    // Told at once to the address that holds the account, with a link that cancels the change.
    const announcement = this.mailer.compose('email_change_requested', language, user.email, {
      name: user.name,
      maskedEmail: maskEmail(newEmail),
      cancelUrl: this.mailer.link('/account/cancel-email-change', { token: cancel.token }),
      validFor,
    });
    const confirm = this.mailer.compose('confirm_new_email', language, newEmail, {
      confirmUrl: this.mailer.link('/account/confirm-new-email', { token }),
      validFor: durationWords(this.config.emailTokenTtlSeconds, language),
    });
    const exists = this.mailer.compose('account_exists', language, newEmail, {
      signInUrl: this.mailer.link('/oauth/sign-in', { return_to: '/account' }),
      resetUrl: this.mailer.link('/account/forgot-password'),
    });
    const expiresAt = now + this.config.emailTokenTtlSeconds * 1000;
    await this.transactions.run(async (tx) => {
      await this.tokens.insert(tx, { userId: user.id, purpose: 'cancel_email_change', tokenHash: cancel.hash, newEmail, expiresAt, createdAt: now });
      await this.mailer.enqueue(tx, announcement, now);
      if ((await this.users.idByEmail(tx, newEmail)) !== null) return this.mailer.enqueue(tx, exists, now);
      await this.tokens.insert(tx, { userId: user.id, purpose: 'change_email', tokenHash: hash, newEmail, expiresAt, createdAt: now });
      await this.mailer.enqueue(tx, confirm, now);
    });
    return { ok: true, newEmail };
  }

  async checkEmailChange(token: unknown, ip: string): Promise<LinkCheck> {
    return this.guesses.guess(ip, async () => (await this.holderOf(token, 'change_email')) !== null);
  }

  /**
   * The POST behind the link: the address changes, once, and every way in that came before it ends
   * (sessions, mailed links, tokens; WaysInService). The old address is told, with a way back that works
   * there: a link that puts it back (restoreEmail), not a reset link, which would now reach the new mailbox.
   */
  async confirmEmailChange(token: unknown, ip: string, language: Language): Promise<LinkCheck> {
    let holder: TokenHolder | null = null;
    const check = await this.guesses.guess(ip, async () => (holder = await this.holderOf(token, 'change_email')) !== null);
    const account = holder as TokenHolder | null;
    if (check.kind !== 'valid' || !account?.newEmail) return check;
    const newEmail = account.newEmail;
    const now = this.clock.now();
    const restore = newMailToken();
    const notice = this.mailer.compose('email_changed', language, account.email, {
      name: account.name,
      newEmail,
      restoreUrl: this.mailer.link('/account/restore-email', { token: restore.token }),
      validFor: durationWords(RESTORE_EMAIL_TTL_SECONDS, language),
    });
    const changed = await this.transactions.run(async (tx) => {
      const used = await this.tokens.use(tx, mailTokenHash(token)!, 'change_email', now);
      if (!used || !(await this.tokens.setEmail(tx, used.userId, newEmail))) return false;
      await this.tokens.endSessions(tx, used.userId, now);
      await this.waysIn.endAll(tx, used.userId, now);
      // After endAll, which retires every link before it: the way back to the address just left is the one
      // link this change leaves, until the account's next password or address.
      await this.tokens.insert(tx, { userId: used.userId, purpose: 'restore_email', tokenHash: restore.hash, newEmail: account.email, expiresAt: now + RESTORE_EMAIL_TTL_SECONDS * 1000, createdAt: now });
      await this.mailer.enqueue(tx, notice, now);
      return true;
    });
    if (!changed) return { kind: 'invalid' };
    this.tokenCache.revoked();
    await this.events.record({ userId: account.userId, type: 'email_changed', ip, at: now });
    return { kind: 'valid' };
  }

  /** The page of the cancel link mailed to the current address (GET): whether its token is waiting. */
  async checkCancelEmailChange(token: unknown, ip: string): Promise<LinkCheck> {
    return this.guesses.guess(ip, async () => (await this.holderOf(token, 'cancel_email_change')) !== null);
  }

  /** The POST behind the cancel link: every pending change of address of the account stops working, once. */
  async cancelEmailChange(token: unknown, ip: string): Promise<LinkCheck> {
    let holder: TokenHolder | null = null;
    const check = await this.guesses.guess(ip, async () => (holder = await this.holderOf(token, 'cancel_email_change')) !== null);
    const account = holder as TokenHolder | null;
    if (check.kind !== 'valid' || !account) return check;
    const now = this.clock.now();
    const cancelled = await this.transactions.run(async (tx) => {
      const used = await this.tokens.use(tx, mailTokenHash(token)!, 'cancel_email_change', now);
      if (!used) return false;
      await this.tokens.retire(tx, used.userId, 'change_email', now);
      return true;
    });
    if (!cancelled) return { kind: 'invalid' };
    await this.events.record({ userId: account.userId, type: 'email_change_cancelled', ip, at: now });
    return { kind: 'valid' };
  }

  /** The page of the way back mailed to the old address (GET): whether its token is waiting. */
  async checkRestoreEmail(token: unknown, ip: string): Promise<LinkCheck> {
    return this.guesses.guess(ip, async () => (await this.holderOf(token, 'restore_email')) !== null);
  }

  /**
   * "This was not me" (the POST behind the link in the notice to the old address), as an identity
   * provider's account recovery does: in one transaction the old address comes back, the password becomes
   * unusable (whoever made the change knew it), every session ends, every mailed link is retired, every
   * token is revoked, every passkey and the authenticator app
   * are removed (any of them may be the stranger's), and a reset link is mailed to the
   * restored address, the one way in left. Refused (changing nothing) when another account took the
   * old address meanwhile.
   */
  async restoreEmail(token: unknown, ip: string, language: Language): Promise<Exclude<LinkCheck, { kind: 'valid' }> | { kind: 'valid'; email: string }> {
    let holder: TokenHolder | null = null;
    const check = await this.guesses.guess(ip, async () => (holder = await this.holderOf(token, 'restore_email')) !== null);
    const account = holder as TokenHolder | null;
    if (check.kind !== 'valid') return check;
    if (!account?.newEmail) return { kind: 'invalid' };
    const oldEmail = account.newEmail;
    const now = this.clock.now();
    // A hash of 256 random bits nobody knows: no password signs in until the reset link is used.
    const unusable = await PasswordHasher.hash(newMailToken().token);
    const reset = newMailToken();
    const mail = this.mailer.compose('email_restored', language, oldEmail, {
      name: account.name,
      resetUrl: this.mailer.link('/account/reset-password', { token: reset.token }),
      validFor: durationWords(this.config.passwordResetTtlSeconds, language),
    });
    const restored = await this.transactions.run(async (tx) => {
      const used = await this.tokens.use(tx, mailTokenHash(token)!, 'restore_email', now);
      if (!used || !(await this.tokens.setEmail(tx, used.userId, oldEmail))) return false;
      await this.tokens.setPassword(tx, used.userId, unusable, now);
      await this.waysIn.endAll(tx, used.userId, now);
      // A passkey or authenticator app the stranger added would still sign in, or lock the owner out of
      // the password sign-in; the owner adds theirs again once back in.
      await this.passkeys.forgetAll(tx, used.userId);
      await this.secondFactor.forget(tx, used.userId);
      await this.tokens.insert(tx, { userId: used.userId, purpose: 'reset_password', tokenHash: reset.hash, expiresAt: now + this.config.passwordResetTtlSeconds * 1000, createdAt: now });
      await this.mailer.enqueue(tx, mail, now);
      return true;
    });
    if (!restored) return { kind: 'invalid' };
    this.tokenCache.revoked();
    await this.events.record({ userId: account.userId, type: 'email_restored', ip, at: now });
    return { kind: 'valid', email: oldEmail };
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

  private async holderOf(token: unknown, purpose: AccountMailTokenPurpose): Promise<TokenHolder | null> {
    const hash = mailTokenHash(token);
    return hash === null ? null : this.tokens.holder(hash, purpose, this.clock.now());
  }
}

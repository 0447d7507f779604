import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { mailConfig } from '../../config/configuration';
import { Clock } from '../../common/clock';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { MetricsService } from '../../metrics/metrics.service';
import { User } from '../../users/user.entity';
import { UsersService } from '../../users/users.service';
import { Page } from '../../web/page';
import { SelfServiceLinks, signInPage } from '../../web/pages/pages';
import type { FlowContext } from '../flow-context';
import { FlowOutcome } from '../../web/responses';
import { SessionService } from '../../web/session/session.service';
import { safeReturnPath } from '../../web/forms/return-path';
import { DeviceCookieService } from './device-cookie.service';
import { deviceThrottleKey, SignInThrottleService } from './sign-in-throttle.service';

/** The outcome of one email and password checked against the throttle and the accounts. */
export type SignInAttempt = { ok: true; user: User } | { ok: false; problem: 'throttled'; retryAfterSeconds: number } | { ok: false; problem: 'invalid_credentials' };

/** What an attempt needs of its request: the caller's address and the browser's device cookie. */
export type SignInRequest = Pick<FlowContext, 'ip' | 'deviceCookie' | 'rememberDevice'>;

/**
 * Signing in with email and password, for the authorization flow and for the account pages alike
 * (SECURITY.md, "Password guessing" and "Racing the throttle"): every attempt takes its slot on the
 * throttle before its password is checked, per account (or per known browser, by its device cookie)
 * and per IP; it is recorded as a security event of the account (a failure only when the address
 * belongs to an account).
 */
@Injectable()
export class SignInService {
  constructor(
    private readonly users: UsersService,
    private readonly throttle: SignInThrottleService,
    private readonly devices: DeviceCookieService,
    private readonly sessions: SessionService,
    private readonly events: SecurityEventsService,
    private readonly metrics: MetricsService,
    private readonly clock: Clock,
    @Inject(mailConfig.KEY) private readonly mail: ConfigType<typeof mailConfig>,
  ) {}

  /** README.md, Your account: sign-up when SIGN_UP is open and mail is on; a forgotten password when mail is on. */
  selfServiceLinks(): SelfServiceLinks {
    return { signUp: this.mail.enabled && this.mail.signUp === 'open', forgotPassword: this.mail.enabled };
  }

  async attempt(email: string, password: string, request: SignInRequest): Promise<SignInAttempt> {
    const attempt = await this.check(email, password, request);
    this.metrics.signIn(attempt.ok ? 'success' : attempt.problem);
    return attempt;
  }

  private async check(email: string, password: string, request: SignInRequest): Promise<SignInAttempt> {
    const { ip } = request;
    const now = this.clock.now();
    const keys = this.throttle.keysFor(email, ip);
    const counter = (await this.knownDevice(request.deviceCookie, email, now)) ?? keys.account;
    // Counted before the password is checked, with the same answer for every address: simultaneous
    // attempts past the limit are refused unchecked, whatever their password.
    const reservation = await this.throttle.reserve(counter, keys.ip, now);
    if (!reservation.allowed) return { ok: false, problem: 'throttled', retryAfterSeconds: reservation.retryAfterSeconds };

    const user = email && password ? await this.users.authenticate(email, password) : null;
    if (!user) {
      // The reserved slot stays: it is this failure.
      const owner = email ? await this.users.findByEmail(email) : null;
      if (owner) await this.events.record({ userId: owner.id, type: 'sign_in_failed', ip });
      return { ok: false, problem: 'invalid_credentials' };
    }
    await this.throttle.succeeded(reservation);
    request.rememberDevice(user.id);
    await this.events.record({ userId: user.id, type: 'sign_in', ip });
    return { ok: true, user };
  }

  /**
   * The counter of the browser's device cookie when it is valid and was issued for the account of this
   * address; otherwise none (a forged cookie, or one for another account, earns nothing). Only a valid
   * cookie costs a lookup, so the answer to anyone without one never depends on the account existing.
   */
  private async knownDevice(cookie: string | undefined, email: string, now: number): Promise<string | undefined> {
    const device = this.devices.open(cookie, now);
    if (!device) return undefined;
    const owner = email ? await this.users.findByEmail(email) : null;
    return owner?.id === device.uid ? deviceThrottleKey(device.nonce) : undefined;
  }

  /** `GET /oauth/sign-in?return_to=…`: the sign-in page for an account page, or straight back when signed in. */
  async page(returnTo: unknown, ctx: FlowContext): Promise<FlowOutcome> {
    const target = safeReturnPath(returnTo);
    if (ctx.session?.uid && (await this.users.findById(ctx.session.uid))) return { kind: 'redirect', location: target, status: 303 };
    return { kind: 'page', page: this.accountSignInPage(ctx, target) };
  }

  /** `POST /oauth/sign-in` with `return_to` instead of a pending authorization request. */
  async submit(form: Record<string, unknown>, ctx: FlowContext): Promise<FlowOutcome> {
    const target = safeReturnPath(field(form, 'return_to'));
    const email = field(form, 'email') ?? '';
    const attempt = await this.attempt(email, field(form, 'password') ?? '', ctx);
    if (attempt.ok) {
      await ctx.signIn(attempt.user.id);
      return { kind: 'redirect', location: target, status: 303 };
    }
    const page =
      attempt.problem === 'throttled'
        ? this.accountSignInPage(ctx, target, { email, problem: 'throttled', status: 429, headers: { 'retry-after': String(attempt.retryAfterSeconds) } })
        : this.accountSignInPage(ctx, target, { email, problem: 'invalid_credentials', status: 400 });
    return { kind: 'page', page };
  }

  private accountSignInPage(
    ctx: FlowContext,
    returnTo: string,
    extra: { email?: string; problem?: 'invalid_credentials' | 'throttled'; status?: number; headers?: Record<string, string> } = {},
  ): Page {
    const session = ctx.ensureSession();
    return signInPage({ language: ctx.language, form: { csrfToken: this.sessions.csrfToken(session), returnTo }, selfService: this.selfServiceLinks(), ...extra });
  }
}

/** One form field as a string; a repeated field (an array) counts as missing. */
export function field(form: Record<string, unknown>, name: string): string | undefined {
  const value = form[name];
  return typeof value === 'string' ? value : undefined;
}

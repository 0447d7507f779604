import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { authConfig, mailConfig } from '../../config/configuration';
import { SecondFactorService } from '../../second-factor/second-factor.service';
import { PasskeysService } from '../../passkeys/passkeys.service';
import { Sealer } from '../../common/crypto/sealer';
import { Clock } from '../../common/clock';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { MetricsService } from '../../metrics/metrics.service';
import { User } from '../../users/user.entity';
import { UsersService } from '../../users/users.service';
import type { FlowContext } from '../flow-context';
import { FlowOutcome, FormState, SecondFactorOutcome, SelfServiceLinks, SignInOutcome } from '../../web/outcomes';
import { SessionService } from '../../web/session/session.service';
import { safeReturnPath } from '../../web/forms/return-path';
import { DeviceCookieService } from './device-cookie.service';
import { deviceThrottleKey, SignInThrottleService } from '../../rate-limit/sign-in-throttle.service';
import { SignInForm } from './sign-in.form';

/**
 * The outcome of one step of a sign-in: the email and password, or the code that follows them. Only
 * `ok: true` is a sign-in; a right password of an account with an authenticator app is not one yet
 * (`code_required`: the page asks for the code, carrying `pending`, and no session is made).
 */
export type SignInAttempt =
  | { ok: true; user: User; amr: AuthenticationMethod[]; authAt: number }
  | { ok: false; problem: 'code_required' | 'invalid_code'; pending: string; stepUp?: boolean }
  | { ok: false; problem: 'throttled'; retryAfterSeconds: number; pending?: string; stepUp?: boolean }
  | { ok: false; problem: 'invalid_credentials' | 'sign_in_expired' | 'passkey_refused' | 'passkey_unverified' };

/** RFC 8176 §2: how the user proved who they are, as the ID token's `amr` says it. */
export type AuthenticationMethod = 'pwd' | 'otp' | 'pop' | 'mfa';

/** What an attempt needs of its request: the caller's address, the browser's device cookie and its session. */
export type SignInRequest = Pick<FlowContext, 'ip' | 'language' | 'deviceCookie' | 'rememberDevice' | 'ensureSession'>;

/** A password step waiting for its code: long enough to open the app and type it, short enough to be worthless soon after. */
const PENDING_MS = 5 * 60 * 1000;

interface PendingSignIn {
  /** The session the password was given in: the code is accepted in that session only. */
  sid: string;
  uid: number;
  /**
   * When the password was checked (epoch ms), before the account was read: the sign-in's instant. A reset
   * or change of the password since (users.sessions_valid_from later than this) makes the step worthless.
   */
  at: number;
  /** Asked for by an application (acr_values) of a session signed in already, not after a password. */
  stepUp?: boolean;
}

/**
 * Signing in with email and password, for the authorization flow and for the account pages alike
 * (SECURITY.md, "Password guessing" and "Racing the throttle"): every attempt takes its slot on the
 * throttle before its password is checked, per account (or per known browser, by its device cookie)
 * and per IP; it is recorded as a security event of the account (a failure only when the address
 * belongs to an account).
 */
@Injectable()
export class SignInService {
  private readonly pending: Sealer;

  constructor(
    private readonly users: UsersService,
    private readonly throttle: SignInThrottleService,
    private readonly devices: DeviceCookieService,
    private readonly sessions: SessionService,
    private readonly events: SecurityEventsService,
    private readonly metrics: MetricsService,
    private readonly secondFactor: SecondFactorService,
    private readonly passkeys: PasskeysService,
    @Inject(authConfig.KEY) auth: ConfigType<typeof authConfig>,
    @Inject(mailConfig.KEY) private readonly mail: ConfigType<typeof mailConfig>,
    private readonly clock: Clock,
  ) {
    this.pending = new Sealer(auth.sessionSecret, 'second-factor');
  }

  /**
   * The posted sign-in form, whichever step it is: the code (with the sealed `second_factor` of its
   * password step) or the email and password.
   */
  async step(form: SignInForm, request: SignInRequest): Promise<SignInAttempt> {
    // The passkey form's field is empty until its script fills it: a form posted whole counts as the password's.
    const passkey = form.passkey;
    if (passkey) return this.withPasskey(passkey, request);
    const pending = form.second_factor;
    if (pending !== undefined) return this.withCode(pending, form.code ?? '', request);
    return this.attempt(form.email ?? '', form.password ?? '', request);
  }

  /** README.md, Your account: sign-up when SIGN_UP is open and mail is on; a forgotten password when mail is on. */
  selfServiceLinks(): SelfServiceLinks {
    return { signUp: this.mail.enabled && this.mail.signUp === 'open', forgotPassword: this.mail.enabled };
  }

  async attempt(email: string, password: string, request: SignInRequest): Promise<SignInAttempt> {
    const attempt = await this.check(email, password, request);
    if (attempt.ok) this.metrics.signIn('success');
    else if (attempt.problem === 'throttled' || attempt.problem === 'invalid_credentials') this.metrics.signIn(attempt.problem);
    return attempt;
  }

  /**
   * The second step (docs/second-factor.md): the code of the account whose password was given in this
   * session minutes ago. Guesses are counted on the sign-in throttle before they are checked.
   */
  private async withCode(pendingValue: string, code: string, request: SignInRequest): Promise<SignInAttempt> {
    const pending = this.pending.open<PendingSignIn>(pendingValue, this.clock.now());
    // Sealed for another session (another browser, or before a sign-in since), expired or forged: start again.
    if (!pending || pending.sid !== request.ensureSession().sid || typeof pending.uid !== 'number' || typeof pending.at !== 'number') return { ok: false, problem: 'sign_in_expired' };
    const user = await this.users.findById(pending.uid);
    // The password given was reset or changed since (SECURITY.md, "A sign-in under way while the owner resets"): start again.
    if (!user || endedSince(user, pending.at)) return { ok: false, problem: 'sign_in_expired' };
    const check = await this.secondFactor.verify(user, code, request);
    if (!check.ok) {
      if (check.problem === 'throttled') return { ok: false, problem: 'throttled', retryAfterSeconds: check.retryAfterSeconds, pending: pendingValue, stepUp: pending.stepUp };
      await this.events.record({ userId: user.id, type: 'sign_in_failed', ip: request.ip });
      this.metrics.signIn('invalid_credentials');
      return { ok: false, problem: 'invalid_code', pending: pendingValue, stepUp: pending.stepUp };
    }
    // The sign-in's instant is the password's: a reset that commits while the code is checked ends it.
    return this.signedIn(user, ['pwd', 'otp', 'mfa'], pending.at, request);
  }

  /**
   * **Sign in with a passkey** (docs/second-factor.md, "Passkeys"): a full sign-in by itself, no
   * password and no code. RFC 8176: `pop` (proof of possession of a key) and `mfa`, since the
   * authenticator always verified the user too (a PIN or a fingerprint: something known or something
   * one is); an answer without that is refused, a failed sign-in of the passkey's account.
   */
  private async withPasskey(credential: string, request: SignInRequest): Promise<SignInAttempt> {
    const at = this.clock.now();
    const result = await this.passkeys.authenticate(request.ensureSession(), credential);
    if (!result.ok && result.problem === 'unverified') {
      await this.events.record({ userId: result.userId, type: 'sign_in_failed', ip: request.ip });
      this.metrics.signIn('invalid_credentials');
      return { ok: false, problem: 'passkey_unverified' };
    }
    if (!result.ok) return { ok: false, problem: 'passkey_refused' };
    return this.signedIn(result.user, ['pop', 'mfa'], at, request);
  }

  /**
   * A user signed in with one factor, for an application that asked for two (`acr_values`,
   * src/oauth/acr.ts): the code step of an account with an authenticator app (sealed for this session,
   * as after a password), the passkey of an account with passkeys only, or `none`: the account has no
   * second factor and cannot meet the request.
   */
  async stepUp(user: User, request: Pick<SignInRequest, 'ensureSession'>): Promise<{ kind: 'code'; pending: string } | { kind: 'passkey' } | { kind: 'none' }> {
    if (await this.secondFactor.required(user.id)) {
      const now = this.clock.now();
      const pending = this.pending.seal({ sid: request.ensureSession().sid, uid: user.id, at: now, stepUp: true } satisfies PendingSignIn, now + PENDING_MS);
      return { kind: 'code', pending };
    }
    return (await this.passkeys.list(user.id)).length > 0 ? { kind: 'passkey' } : { kind: 'none' };
  }

  /** The options of the sign-in page's passkey button and autofill, bound to this browser's session. */
  passkeyOptions(ctx: Pick<FlowContext, 'ensureSession'>): Promise<string> {
    return this.passkeys.authenticationOptions(ctx.ensureSession());
  }

  private async signedIn(user: User, amr: AuthenticationMethod[], authAt: number, request: SignInRequest): Promise<SignInAttempt> {
    request.rememberDevice(user.id);
    await this.events.record({ userId: user.id, type: 'sign_in', ip: request.ip });
    this.metrics.signIn('success');
    return { ok: true, user, amr, authAt };
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
    // The password alone is no sign-in for an account with an authenticator app: no session, no device
    // cookie, until the code is right (docs/second-factor.md).
    if (await this.secondFactor.required(user.id)) {
      const session = request.ensureSession();
      return { ok: false, problem: 'code_required', pending: this.pending.seal({ sid: session.sid, uid: user.id, at: now } satisfies PendingSignIn, now + PENDING_MS) };
    }
    request.rememberDevice(user.id);
    await this.events.record({ userId: user.id, type: 'sign_in', ip });
    // `now` was read before the password hash: a reset committed while the hash was checked is later than
    // this sign-in, and ends the session it makes (SessionService compares users.sessions_valid_from).
    return { ok: true, user, amr: ['pwd'], authAt: now };
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
  async page(returnTo: unknown, ctx: FlowContext, notice?: 'password_reset'): Promise<FlowOutcome> {
    const target = safeReturnPath(returnTo);
    if (ctx.session?.uid && (await this.users.findById(ctx.session.uid))) return { kind: 'redirect', location: target, status: 303 };
    return { ...(await this.accountSignInPage(ctx, target)), notice };
  }

  /** `POST /oauth/sign-in` with `return_to` instead of a pending authorization request. */
  async submit(form: SignInForm, ctx: FlowContext): Promise<FlowOutcome> {
    const target = safeReturnPath(form.return_to);
    const email = form.email ?? '';
    const attempt = await this.step(form, ctx);
    if (attempt.ok) {
      await ctx.signIn(attempt.user.id, attempt.amr, attempt.authAt);
      return { kind: 'redirect', location: target, status: 303 };
    }
    const formState = { csrfToken: this.sessions.csrfToken(ctx.ensureSession()), returnTo: target };
    return attemptOutcome(attempt, { form: formState, email, passkeyOptions: await this.passkeyOptions(ctx), selfService: this.selfServiceLinks() });
  }

  private async accountSignInPage(ctx: FlowContext, returnTo: string): Promise<SignInOutcome> {
    const session = ctx.ensureSession();
    return { kind: 'sign_in', form: { csrfToken: this.sessions.csrfToken(session), returnTo }, passkeyOptions: await this.passkeyOptions(ctx), selfService: this.selfServiceLinks() };
  }
}

/**
 * What answers a step of the sign-in that did not sign in: the code step (asked for, wrong, or too many
 * guesses), or the sign-in page with its problem. `input` says for whom (the application's name, redirect
 * origin and verification in the authorization flow) and what the forms carry back.
 */
export function attemptOutcome(
  attempt: Exclude<SignInAttempt, { ok: true }>,
  input: {
    form: FormState;
    email: string;
    clientName?: string;
    redirectOrigin?: string;
    unverified?: { redirectHost: string };
    passkeyOptions?: string;
    selfService?: SelfServiceLinks;
  },
): SignInOutcome | SecondFactorOutcome {
  const { form, email, passkeyOptions, unverified, selfService, ...base } = input;
  if (attempt.problem === 'code_required' || attempt.problem === 'invalid_code' || (attempt.problem === 'throttled' && attempt.pending !== undefined)) {
    const refused = attempt.problem === 'throttled' ? { problem: 'throttled' as const, retryAfterSeconds: attempt.retryAfterSeconds } : attempt.problem === 'invalid_code' ? { problem: 'invalid_code' as const } : undefined;
    return { kind: 'second_factor', ...base, form: { ...form, secondFactor: attempt.pending }, refused, stepUp: attempt.stepUp || undefined };
  }
  const page = { kind: 'sign_in' as const, ...base, form, unverified, passkeyOptions, selfService };
  if (attempt.problem === 'throttled') return { ...page, email, refused: { problem: 'throttled', retryAfterSeconds: attempt.retryAfterSeconds } };
  if (attempt.problem === 'invalid_credentials') return { ...page, email, refused: { problem: 'invalid_credentials' } };
  return { ...page, refused: { problem: attempt.problem } };
}

/** Whether the account's sessions were ended (a password reset or change, a new address) after `at`. */
function endedSince(user: User, at: number): boolean {
  return user.sessionsValidFrom !== null && user.sessionsValidFrom > at;
}

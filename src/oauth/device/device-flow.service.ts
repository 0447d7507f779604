import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { authConfig } from '../../config/configuration';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { formatScope } from '../../common/scopes';
import { Client } from '../../clients/client.entity';
import { ClientsService } from '../../clients/clients.service';
import { Clock } from '../../common/clock';
import { UsersService } from '../../users/users.service';
import { User } from '../../users/user.entity';
import type { FlowContext } from '../flow-context';
import { FlowOutcome } from '../../web/outcomes';
import { FormRefusedError } from '../authorize/authorize.errors';
import { ConsentsService } from '../authorize/consents.service';
import { DeviceAuthorization } from '../entities/device-authorization.entity';
import { SessionService } from '../../web/session/session.service';
import { SignInThrottleService } from '../../rate-limit/sign-in-throttle.service';
import { DeviceAuthorizationsService } from './device-authorizations.service';
import { addressKey } from '../../rate-limit/address-key';
import { formatUserCode, normaliseUserCode } from './user-code';
import { DeviceCodeForm, DeviceConsentForm } from './device.form';

/** Where the sign-in page returns to for the device flow (docs/integrate-with-oauth.md). */
export const DEVICE_CONSENT_PATH = '/device/consent';

type Lookup =
  | { ok: true; authorization: DeviceAuthorization; client: Client; userCode: string }
  | { ok: false; problem: 'wrong_code' }
  | { ok: false; problem: 'throttled'; retryAfterSeconds: number };

/** The wrong user codes of all addresses together, one counter (SECURITY.md, "Guessing user codes"). */
export const USER_CODE_BUDGET_KEY = 'usercode:all';

/** The user-code guesses of one address (an IPv6 address by its /64), apart from the sign-in counters (SECURITY.md, "Guessing user codes"). */
export function userCodeThrottleKey(ip: string): string {
  return `usercode:ip:${addressKey(ip)}`;
}

/**
 * The user's side of the Device Authorization Grant (RFC 8628 §3.3): the page where the code is
 * entered, the sign-in of the authorization flow, the consent page of the authorization flow, and the
 * page that sends the user back to the device. Nothing is decided by a GET: a pre-filled code is
 * confirmed with the form, and the consent with its buttons.
 */
@Injectable()
export class DeviceFlowService {
  constructor(
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
    private readonly devices: DeviceAuthorizationsService,
    private readonly clients: ClientsService,
    private readonly users: UsersService,
    private readonly sessions: SessionService,
    private readonly consents: ConsentsService,
    private readonly events: SecurityEventsService,
    private readonly throttle: SignInThrottleService,
    private readonly clock: Clock,
  ) {}

  /** `GET /device[?user_code=…]`: the form, filled in from `verification_uri_complete` when given. */
  entry(typed: string | undefined, ctx: FlowContext): FlowOutcome {
    const normalised = normaliseUserCode(typed);
    // A well-formed code is shown as XXXX-XXXX; anything else is shown as given, for the user to correct.
    const userCode = normalised ? formatUserCode(normalised) : typed?.slice(0, 64);
    return { kind: 'device_code', csrfToken: this.csrfToken(ctx), userCode };
  }

  /** `POST /device`: the code entered; on to the consent page (through the sign-in page if needed). */
  async submit(form: DeviceCodeForm, ctx: FlowContext): Promise<FlowOutcome> {
    const found = await this.lookUp(form.user_code, ctx);
    if (!found.ok) return this.refused(found, form.user_code, ctx);
    return { kind: 'redirect', location: consentLocation(found.userCode), status: 303 };
  }

  /**
   * `GET /device/consent?user_code=…`: the consent page of the authorization flow, for a signed-in user.
   * Opened from another site's page (`fromAnotherSite`: an image or a link can make any browser fetch
   * it), the code is not looked up, since the lookup would spend the guesses of the browser's address
   * (SECURITY.md, "Guessing user codes"): the code's form is shown instead, filled in, for the user to send.
   */
  async consentPage(typed: string | undefined, ctx: FlowContext, fromAnotherSite = false): Promise<FlowOutcome> {
    if (fromAnotherSite) return { kind: 'redirect', location: entryLocation(typed), status: 303 };
    const found = await this.lookUp(typed, ctx);
    if (!found.ok) return this.refused(found, typed, ctx);
    const user = await this.signedInUser(ctx);
    if (!user) return signInFirst(found.userCode);
    return {
      kind: 'consent',
      clientName: found.client.name,
      userLabel: user.email,
      scopes: found.authorization.scope,
      form: { csrfToken: this.csrfToken(ctx), userCode: found.userCode },
      // No redirect URI in this flow: the warning says who gets the access (RFC 8628 §5.4).
      unverified: found.client.verified ? undefined : { device: true },
      userCode: formatUserCode(found.userCode),
    };
  }

  /** `POST /device/consent`: approve or deny, once; then the page that sends the user back to the device. */
  async decide(form: DeviceConsentForm, ctx: FlowContext): Promise<FlowOutcome> {
    const decision = form.decision;
    if (decision !== 'approve' && decision !== 'deny') throw new FormRefusedError('transaction', 'device');
    const found = await this.lookUp(form.user_code, ctx);
    if (!found.ok) return this.refused(found, undefined, ctx);
    const user = await this.signedInUser(ctx);
    // The session ended between the pages: sign in again, the code is kept.
    if (!user) return signInFirst(found.userCode);

    const approved = decision === 'approve';
    const { authorization, client } = found;
    const decided = await this.devices.decide(authorization.id, { approved, userId: user.id, authTime: ctx.session?.authAt ?? null, amr: ctx.session?.amr ?? null }, this.clock.now());
    // Decided meanwhile (another tab) or expired: the code is no longer usable.
    if (!decided) return this.refused({ ok: false, problem: 'wrong_code' }, undefined, ctx);
    if (approved) {
      // Remembered as in the code flow: the application is listed among the user's connected apps.
      await this.consents.remember(user.id, client, authorization.scope, null);
      await this.events.record({ userId: user.id, type: 'consent_given', ip: ctx.ip, details: { client: client.name, clientId: client.clientId, scope: formatScope(authorization.scope) } });
    }
    return { kind: 'device_done', clientName: client.name, approved };
  }

  /**
   * A code as the user typed it, checked against the throttle first: every lookup takes a slot on the
   * address's counter (an IPv6 address's /64) before the code is looked up, a code that was right gives
   * it back. So at most SIGN_IN_MAX_FAILURES wrong codes per SIGN_IN_WINDOW from one address, also when
   * sent at once; and past USER_CODE_GUESS_BUDGET wrong codes from all addresses together, one per
   * address per window.
   */
  private async lookUp(typed: string | undefined, ctx: FlowContext): Promise<Lookup> {
    const now = this.clock.now();
    const reservation = await this.throttle.reserveOne(userCodeThrottleKey(ctx.ip), now);
    if (!reservation.allowed) return { ok: false, problem: 'throttled', retryAfterSeconds: reservation.retryAfterSeconds };
    const userCode = normaliseUserCode(typed);
    const authorization = userCode ? await this.devices.findPending(userCode, now) : null;
    const client = authorization ? await this.clients.findById(authorization.clientId) : null;
    if (!authorization || !client || !userCode) {
      // A wrong code is counted on the budget of all addresses too. Once it is spent, a wrong code is
      // answered 429 and leaves its address no more guesses in its window; a right code, always looked
      // up first, still passes (SECURITY.md, "Guessing user codes").
      const budget = await this.throttle.reserveOne(USER_CODE_BUDGET_KEY, now, { max: this.auth.userCodeGuessBudget, windowMs: this.auth.signInWindowSeconds * 1000 });
      if (budget.allowed) return { ok: false, problem: 'wrong_code' };
      const addressWait = await this.throttle.fill(reservation, now);
      return { ok: false, problem: 'throttled', retryAfterSeconds: Math.max(budget.retryAfterSeconds, addressWait) };
    }
    await this.throttle.release(reservation);
    return { ok: true, authorization, client, userCode };
  }

  private refused(lookup: Extract<Lookup, { ok: false }>, typed: string | undefined, ctx: FlowContext): FlowOutcome {
    return { kind: 'device_code', csrfToken: this.csrfToken(ctx), userCode: typed?.slice(0, 64), refused: lookup };
  }

  private csrfToken(ctx: FlowContext): string {
    return this.sessions.csrfToken(ctx.ensureSession());
  }

  private async signedInUser(ctx: FlowContext): Promise<User | null> {
    return ctx.session?.uid === undefined ? null : this.users.findById(ctx.session.uid);
  }
}

/** `/device`, with the code as it was given (at most 64 characters) for the form to show. */
function entryLocation(typed: string | undefined): string {
  return typed === undefined ? '/device' : `/device?user_code=${encodeURIComponent(typed.slice(0, 64))}`;
}

function consentLocation(userCode: string): string {
  return `${DEVICE_CONSENT_PATH}?user_code=${formatUserCode(userCode)}`;
}

/** The sign-in page of the account pages, back to this code's consent page afterwards. */
function signInFirst(userCode: string): FlowOutcome {
  return { kind: 'redirect', location: `/oauth/sign-in?return_to=${encodeURIComponent(consentLocation(userCode))}`, status: 303 };
}

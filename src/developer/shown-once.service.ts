import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../common/clock';
import { appConfig, authConfig } from '../config/configuration';
import { SealedCookie } from '../common/http/shown-once-cookie';
import type { Session } from '../web/session/session.service';
import { DEVELOPER_PATH } from '../web/paths';

/** A credential made by a form post, held until the page that shows it is fetched. */
export type HeldCredential =
  | { kind: 'client'; clientId: string; secret?: string; rotated: boolean }
  | { kind: 'api_key'; apiKeyId: number; key: string };

export const SHOWN_ONCE_COOKIE = 'sp_shown';
/** Long enough for the redirect that follows the post, short enough that a forgotten cookie is soon worthless. */
const HOLD_MS = 5 * 60 * 1000;

/**
 * Post/Redirect/Get for the credentials the developer portal shows once (README.md, Register your
 * application). The post that makes a secret answers with a 303 to the portal, and the secret travels to
 * that one GET in a sealed (AES-256-GCM) cookie, bound to the sign-in session, limited to the portal's
 * path, `HttpOnly` and `SameSite=Strict`. The GET clears it as it shows the secret, so a reload, the
 * back button or a bookmark shows the page without it and repeats nothing: a reload of the post's answer
 * can no longer make a second key. No instance keeps the secret; any instance can show it.
 */
@Injectable()
export class ShownOnceService {
  private readonly cookie: SealedCookie<{ credential: HeldCredential }>;

  constructor(
    @Inject(authConfig.KEY) auth: ConfigType<typeof authConfig>,
    @Inject(appConfig.KEY) app: ConfigType<typeof appConfig>,
    private readonly clock: Clock,
  ) {
    this.cookie = new SealedCookie(auth.sessionSecret, { name: SHOWN_ONCE_COOKIE, purpose: 'shown-once', path: DEVELOPER_PATH, sameSite: 'strict', secure: app.secureCookies, ttlMs: HOLD_MS });
  }

  /** Holds the credential for the next page of this session. */
  hold(reply: FastifyReply, session: Session, credential: HeldCredential): void {
    this.cookie.holdFor(reply, session.sid, { credential }, this.clock.now());
  }

  /**
   * The held credential, taken: the cookie is cleared on this reply whatever it held. A cookie of another
   * session (signed in again, or another user on the same browser), expired or tampered with yields nothing.
   */
  take(request: FastifyRequest, reply: FastifyReply, session: Session): HeldCredential | null {
    return this.cookie.takeFor(request, reply, session.sid, this.clock.now())?.credential ?? null;
  }
}

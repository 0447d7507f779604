import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../common/clock';
import { appConfig, authConfig } from '../../config/configuration';
import { SealedCookie } from '../../common/http/shown-once-cookie';
import type { Session } from '../../web/session/session.service';
import { SECURITY_PATH } from '../../web/paths';

const COOKIE = 'sp_recovery_codes';
const HOLD_MS = 5 * 60 * 1000;

/**
 * The recovery codes, shown once as the developer portal shows its secrets (README.md, Register your
 * application): the post that made them answers 303, and they travel to that one GET in a sealed
 * cookie bound to the session, limited to the security page's path, `HttpOnly`, `SameSite=Strict`;
 * the GET clears it as it shows them. Only their hashes are stored.
 */
@Injectable()
export class RecoveryCodesShownOnce {
  private readonly cookie: SealedCookie<{ codes: string[] }>;

  constructor(
    @Inject(authConfig.KEY) auth: ConfigType<typeof authConfig>,
    @Inject(appConfig.KEY) app: ConfigType<typeof appConfig>,
    private readonly clock: Clock,
  ) {
    this.cookie = new SealedCookie(auth.sessionSecret, { name: COOKIE, purpose: 'recovery-codes', path: SECURITY_PATH, sameSite: 'strict', secure: app.secureCookies, ttlMs: HOLD_MS });
  }

  hold(reply: FastifyReply, session: Session, codes: string[]): void {
    this.cookie.holdFor(reply, session.sid, { codes }, this.clock.now());
  }

  /** The held codes, taken (the cookie is cleared whatever it held); none for another session, expired or tampered. */
  take(request: FastifyRequest, reply: FastifyReply, session: Session): string[] | undefined {
    const held = this.cookie.takeFor(request, reply, session.sid, this.clock.now());
    return held && Array.isArray(held.codes) ? held.codes : undefined;
  }
}

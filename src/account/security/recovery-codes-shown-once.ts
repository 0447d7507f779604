import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../common/clock';
import { appConfig, authConfig } from '../../config/configuration';
import { Sealer } from '../../common/crypto/sealer';
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
  private readonly sealer: Sealer;

  constructor(
    @Inject(authConfig.KEY) auth: ConfigType<typeof authConfig>,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    private readonly clock: Clock,
  ) {
    this.sealer = new Sealer(auth.sessionSecret, 'recovery-codes');
  }

  hold(reply: FastifyReply, session: Session, codes: string[]): void {
    reply.setCookie(COOKIE, this.sealer.seal({ sid: session.sid, codes }, this.clock.now() + HOLD_MS), { ...this.cookieOptions(), maxAge: HOLD_MS / 1000 });
  }

  /** The held codes, taken (the cookie is cleared whatever it held); none for another session, expired or tampered. */
  take(request: FastifyRequest, reply: FastifyReply, session: Session): string[] | undefined {
    const cookie = (request.cookies as Record<string, string | undefined> | undefined)?.[COOKIE];
    if (cookie === undefined) return undefined;
    reply.clearCookie(COOKIE, this.cookieOptions());
    const held = this.sealer.open<{ sid: string; codes: string[] }>(cookie, this.clock.now());
    return held !== null && held.sid === session.sid && Array.isArray(held.codes) ? held.codes : undefined;
  }

  private cookieOptions() {
    return { path: SECURITY_PATH, httpOnly: true, sameSite: 'strict' as const, secure: this.app.secureCookies };
  }
}

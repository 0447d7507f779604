import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../common/clock';
import { Language, requestLanguage } from '../common/i18n/language';
import { Session, SessionService } from '../web/session/session.service';
import { DeviceCookieService } from './sign-in/device-cookie.service';

/** The request-scoped pieces the flow needs from HTTP: language, cookie session, caller address. */
export interface FlowContext {
  language: Language;
  ip: string;
  /** The session the browser sent, if any and valid. */
  session: Session | null;
  /** The session, starting an anonymous one (and setting its cookie) when there is none. */
  ensureSession(): Session;
  /**
   * Replaces the session with a signed-in one for this user (and sets its cookie), ending the one it
   * replaces; `amr` (RFC 8176) says how they signed in, `authAt` when (SessionService.signIn).
   */
  signIn(userId: number, amr: string[], authAt: number): Promise<Session>;
  /** The browser's device cookie as it was sent, not yet checked (SECURITY.md, "Password guessing"). */
  deviceCookie: string | undefined;
  /** Gives the browser a new device cookie for the user who just signed in with a password. */
  rememberDevice(userId: number): void;
}

/** What the pages of the authorization and device flows know of a request (FlowContext). */
@Injectable()
export class FlowContexts {
  constructor(
    private readonly sessions: SessionService,
    private readonly devices: DeviceCookieService,
    private readonly clock: Clock,
  ) {}

  /** The request's language, address and session; a signed-out session reads as none. */
  async of(request: FastifyRequest, reply: FastifyReply): Promise<FlowContext> {
    let session: Session | null = await this.sessions.read(request);
    return {
      language: requestLanguage(request),
      ip: request.ip,
      session,
      ensureSession: () => (session ??= this.sessions.start(reply)),
      signIn: async (userId, amr, authAt) => (session = await this.sessions.signIn(reply, userId, amr, session, authAt)),
      deviceCookie: this.devices.read(request),
      rememberDevice: (userId) => this.devices.issue(reply, userId, this.clock.now()),
    };
  }
}

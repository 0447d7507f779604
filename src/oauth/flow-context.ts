import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../common/clock';
import { negotiateLanguage } from '../common/i18n/language';
import { Session, SessionService } from '../web/session/session.service';
import type { FlowContext } from './authorize/authorize.service';
import { DeviceCookieService } from './sign-in/device-cookie.service';

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
      language: negotiateLanguage(request.headers['accept-language']),
      ip: request.ip,
      session,
      ensureSession: () => (session ??= this.sessions.start(reply)),
      signIn: async (userId) => (session = await this.sessions.signIn(reply, userId, session)),
      deviceCookie: this.devices.read(request),
      rememberDevice: (userId) => this.devices.issue(reply, userId, this.clock.now()),
    };
  }
}

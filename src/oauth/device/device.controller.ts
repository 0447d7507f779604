import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/decorators/public.decorator';
import { Clock } from '../../common/clock';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { negotiateLanguage } from '../../common/i18n/language';
import { appConfig } from '../../config/configuration';
import type { FlowContext } from '../authorize/authorize.service';
import { FormRefusedError } from '../authorize/authorize.errors';
import { FormRefusal, PageForm } from '../../web/forms/page-form.guard';
import { formOf } from '../../web/forms/form';
import { FlowOutcome, sendOutcome } from '../../web/responses';
import { DEVICE_PAGE_ERRORS } from '../../web/page-errors';
import { Session, SessionService } from '../../web/session/session.service';
import { DeviceCookieService } from '../sign-in/device-cookie.service';
import { DeviceFlowService } from './device-flow.service';

/** The verification pages of the Device Authorization Grant (RFC 8628 §3.3): `verification_uri` is `/device`. */
@ApiExcludeController()
@Controller('device')
@SkipEnvelope({ errors: DEVICE_PAGE_ERRORS })
export class DeviceController {
  constructor(
    private readonly flow: DeviceFlowService,
    private readonly sessions: SessionService,
    private readonly devices: DeviceCookieService,
    private readonly clock: Clock,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
  ) {}

  @Get()
  @Public()
  async entry(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    this.send(reply, this.flow.entry(queryOf(request), await this.context(request, reply)));
  }

  @Post()
  @HttpCode(200)
  @Public()
  @PageForm(refuseDeviceForm)
  async submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    this.send(reply, await this.flow.submit(formOf(request), await this.context(request, reply)));
  }

  @Get('consent')
  @Public()
  async consent(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    this.send(reply, await this.flow.consentPage(queryOf(request), await this.context(request, reply)));
  }

  @Post('consent')
  @HttpCode(200)
  @Public()
  @PageForm(refuseDeviceForm)
  async decide(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    this.send(reply, await this.flow.decide(formOf(request), await this.context(request, reply)));
  }

  /** As on the authorization flow's pages: language, address, session. */
  private async context(request: FastifyRequest, reply: FastifyReply): Promise<FlowContext> {
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

  private send(reply: FastifyReply, outcome: FlowOutcome): void {
    sendOutcome(reply, outcome);
  }
}

/** The device flow's forms are refused with a page that leads back to `/device` (RFC 8628 §3.3). */
function refuseDeviceForm(problem: FormRefusal): Error {
  return new FormRefusedError(problem, 'device');
}

/** The query string's parameters; a repeated one is an array, which reads as missing. */
function queryOf(request: FastifyRequest): Record<string, unknown> {
  const query = request.query;
  return typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
}

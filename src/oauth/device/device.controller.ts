import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { FormRefusedError } from '../authorize/authorize.errors';
import { FormRefusal, PageForm } from '../../web/forms/page-form.guard';
import { queryField } from '../../web/forms/form';
import { isFromAnotherSite } from '../../web/forms/same-origin';
import { PageBody } from '../../web/forms/page-body.decorator';
import { DeviceCodeForm, DeviceConsentForm } from './device.form';
import { sendOutcome } from '../../web/responses';
import { DEVICE_PAGE_ERRORS } from '../../web/page-errors';
import { DeviceFlowService } from './device-flow.service';
import { FlowContexts } from '../flow-context';

/** The verification pages of the Device Authorization Grant (RFC 8628 §3.3): `verification_uri` is `/device`. */
@ApiExcludeController()
@Controller('device')
@SkipEnvelope({ errors: DEVICE_PAGE_ERRORS })
export class DeviceController {
  constructor(
    private readonly flow: DeviceFlowService,
    private readonly contexts: FlowContexts,
  ) {}

  @Get()
  @Public()
  async entry(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendOutcome(reply, this.flow.entry(queryField(request, 'user_code'), await this.contexts.of(request, reply)));
  }

  @Post()
  @HttpCode(200)
  @Public()
  @PageForm(refuseDeviceForm)
  async submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageBody(DeviceCodeForm) form: DeviceCodeForm): Promise<void> {
    sendOutcome(reply, await this.flow.submit(form, await this.contexts.of(request, reply)));
  }

  @Get('consent')
  @Public()
  async consent(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendOutcome(reply, await this.flow.consentPage(queryField(request, 'user_code'), await this.contexts.of(request, reply), isFromAnotherSite(request)));
  }

  @Post('consent')
  @HttpCode(200)
  @Public()
  @PageForm(refuseDeviceForm)
  async decide(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageBody(DeviceConsentForm) form: DeviceConsentForm): Promise<void> {
    sendOutcome(reply, await this.flow.decide(form, await this.contexts.of(request, reply)));
  }
}

/** The device flow's forms are refused with a page that leads back to `/device` (RFC 8628 §3.3). */
function refuseDeviceForm(problem: FormRefusal): Error {
  return new FormRefusedError(problem, 'device');
}

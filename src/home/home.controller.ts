import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/decorators/public.decorator';
import { AppError } from '../common/errors/app-error';
import { negotiateLanguage } from '../common/i18n/language';
import { appConfig } from '../config/configuration';
import { sendPage } from '../web/page';
import { frontPage, prefersHtml } from './front-page';

/**
 * `GET /`: a person who opens the service's address in a browser gets a page saying where to go (README.md,
 * Pages); an API client gets the JSON 404 envelope every unknown path answers (docs/using-the-api.md, Envelopes).
 */
@Controller()
@ApiExcludeController()
export class HomeController {
  constructor(@Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>) {}

  @Get()
  @Public()
  show(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    void reply.header('vary', 'Accept, Accept-Language');
    if (!prefersHtml(request.headers.accept)) throw new AppError('NOT_FOUND');
    sendPage(reply, frontPage(negotiateLanguage(request.headers['accept-language']), this.app.platformName));
  }
}

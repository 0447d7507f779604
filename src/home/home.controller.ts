import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { ApiExcludeController } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/decorators/public.decorator';
import { AppError } from '../common/errors/app-error';
import { Language } from '../common/i18n/language';
import { PageLanguage } from '../web/page-language.decorator';
import { appConfig } from '../config/configuration';
import { sendPage } from '../web/page';
import { VIEWS_ROOT } from '../web/views';
import { frontPage, prefersHtml } from './front-page';

/** The pages' icon, a small SVG (the layout links it; browsers also ask for /favicon.ico on their own). */
const FAVICON = readFileSync(join(VIEWS_ROOT, 'static', 'favicon.svg'));

const SIGN_IN = '/oauth/sign-in?return_to=%2Faccount';
const SIGN_UP = '/account/sign-up';

/** Typed address (without its leading slash) → the page meant. */
const TYPED_ADDRESSES: Record<string, string> = {
  login: SIGN_IN,
  signin: SIGN_IN,
  'account/sign-in': SIGN_IN,
  'account/login': SIGN_IN,
  register: SIGN_UP,
  signup: SIGN_UP,
};

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
  show(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language): void {
    void reply.header('vary', 'Accept, Accept-Language');
    if (!prefersHtml(request.headers.accept)) throw new AppError('NOT_FOUND');
    sendPage(reply, frontPage(language, this.app.platformName));
  }

  /**
   * The addresses a person types when looking for the sign-in or sign-up page (README.md, Pages): a
   * browser is sent on (302) to the page it meant; an API client gets the JSON 404 envelope, as for any
   * unknown path.
   */
  @Get(Object.keys(TYPED_ADDRESSES))
  @Public()
  typed(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const path = (request.url.split('?')[0] ?? '').toLowerCase();
    void reply.header('vary', 'Accept');
    if (!prefersHtml(request.headers.accept)) throw new AppError('NOT_FOUND');
    void reply.redirect(TYPED_ADDRESSES[path.replace(/^\/+/, '')] ?? SIGN_IN, 302);
  }

  /** The icon, cached for a month: it changes with a release, if ever. Under the pages' CSP (`img-src 'self'`). */
  @Get(['favicon.ico', 'favicon.svg'])
  @Public()
  favicon(@Res() reply: FastifyReply): void {
    void reply.status(200).headers({ 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=2592000', 'x-content-type-options': 'nosniff' }).send(FAVICON);
  }

  /**
   * `/account/` with its trailing slash, for a browser (an onRequest hook of HomeModule): Nest strips a
   * route's trailing slash, which would declare `/account` twice. Anything else goes on to the usual 404.
   */
  static accountWithSlash(request: FastifyRequest, reply: FastifyReply, next: () => void): void {
    if (request.method !== 'GET' || request.url.split('?')[0] !== '/account/' || !prefersHtml(request.headers.accept)) return next();
    void reply.header('vary', 'Accept').redirect('/account', 302);
  }
}

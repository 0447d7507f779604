import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/decorators/public.decorator';
import { SkipEnvelope } from '../common/envelope/skip-envelope.decorator';
import { negotiateLanguage } from '../common/i18n/language';
import { ApiErrors } from '../common/openapi/envelope.schemas';
import { redirect } from '../oauth/authorize/authorize.errors';
import { sendPage } from '../oauth/pages/html';
import { PAGE_ERRORS } from '../oauth/pages/page-errors';
import { SessionService } from '../oauth/session/session.service';
import { logoutErrorPage, signedOutPage } from './logout-pages';
import { LogoutService } from './logout.service';

const HTML_PAGE = { 'text/html': { schema: { type: 'string', example: '<!doctype html>…' } } };

@ApiTags('oauth')
@Controller('oauth/logout')
@SkipEnvelope({ errors: PAGE_ERRORS })
export class LogoutController {
  constructor(
    private readonly logout: LogoutService,
    private readonly sessions: SessionService,
  ) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'End session (OpenID Connect RP-Initiated Logout 1.0)',
    description: [
      'Ends the user\'s sign-in session with this server, for every copy of its cookie and on every instance. With `post_logout_redirect_uri`, which must be exactly (string equality)',
      'one of the registered redirect URIs of the client named by the `aud` of `id_token_hint` (or by `client_id`), the answer is',
      'a 302 to it with `state`. An unregistered address, an `id_token_hint` this server did not sign, or a repeated parameter:',
      'a 400 HTML page, no redirect, and the session is kept. Without `post_logout_redirect_uri`: a 200 signed-out page.',
      'An expired `id_token_hint` is accepted.',
    ].join(' '),
  })
  @ApiQuery({ name: 'id_token_hint', required: false, description: 'An ID token this server issued to the client (expired is fine).' })
  @ApiQuery({ name: 'post_logout_redirect_uri', required: false, example: 'http://localhost:8080/callback', description: 'Exactly one of the client\'s registered redirect URIs.' })
  @ApiQuery({ name: 'client_id', required: false, description: 'The client, when no `id_token_hint` is sent; must agree with its `aud` otherwise.' })
  @ApiQuery({ name: 'state', required: false, description: 'Returned unchanged on the redirect.' })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The signed-out page (HTML).', content: HTML_PAGE })
  @ApiFoundResponse({ description: 'Signed out; back to `post_logout_redirect_uri` with `state`.', headers: { Location: { schema: { type: 'string', example: 'http://localhost:8080/callback?state=af0ifjsldkj' } } } })
  @ApiResponse({ status: 400, description: 'Refused: an HTML error page, no redirect, the session kept.', content: HTML_PAGE })
  @ApiErrors()
  async end(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const language = negotiateLanguage(request.headers['accept-language']);
    const decision = await this.logout.decide(rawQuery);
    if (decision.kind === 'refused') return sendPage(reply, logoutErrorPage(language, decision.problem));
    const session = await this.sessions.read(request);
    await this.sessions.signOut(session, reply);
    if (decision.kind === 'redirect') return redirect(reply, decision.location);
    sendPage(reply, signedOutPage(language));
  }
}

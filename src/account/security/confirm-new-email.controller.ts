import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { negotiateLanguage } from '../../common/i18n/language';
import { formOf } from '../../web/forms/form';
import { PageForm } from '../../web/forms/page-form.guard';
import { sendPage } from '../../web/page';
import { PAGE_ERRORS } from '../../web/page-errors';
import { SessionService } from '../../web/session/session.service';
import { ForbiddenPageError } from '../../web/account-errors';
import { SELF_SERVICE_MESSAGES } from '../../web/pages/account/self-service-messages';
import { emailChangedPage, linkInvalidPage, mailLinkPage, throttledPage } from '../../web/pages/account/self-service-pages';
import { AccountSecurityService } from './account-security.service';

/** `/account/confirm-new-email` (README.md, Your account): the link mailed to the new address; only its button changes the address. */
@Controller('account')
@Public()
@SkipEnvelope({ errors: PAGE_ERRORS })
@ApiExcludeController()
export class ConfirmNewEmailController {
  constructor(
    private readonly security: AccountSecurityService,
    private readonly sessions: SessionService,
  ) {}

  @Get('confirm-new-email')
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const language = negotiateLanguage(request.headers['accept-language']);
    const token = (request.query as Record<string, unknown> | undefined)?.token;
    const check = await this.security.checkEmailChange(token, request.ip);
    if (check.kind === 'throttled') return sendPage(reply, throttledPage(language, check.retryAfterSeconds));
    if (check.kind === 'invalid') return sendPage(reply, linkInvalidPage(language, '/account/security'));
    const t = SELF_SERVICE_MESSAGES[language];
    const session = (await this.sessions.read(request)) ?? this.sessions.start(reply);
    sendPage(
      reply,
      mailLinkPage(language, {
        title: t.confirmNewEmailTitle,
        intro: t.confirmNewEmailIntro,
        button: t.confirmNewEmailButton,
        action: '/account/confirm-new-email',
        csrfToken: this.sessions.csrfToken(session),
        token: String(token),
      }),
    );
  }

  @Post('confirm-new-email')
  @HttpCode(200)
  @PageForm((problem) => new ForbiddenPageError(problem))
  async confirm(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const language = negotiateLanguage(request.headers['accept-language']);
    const outcome = await this.security.confirmEmailChange(formOf(request).token, request.ip, language);
    if (outcome.kind === 'throttled') return sendPage(reply, throttledPage(language, outcome.retryAfterSeconds));
    if (outcome.kind === 'invalid') return sendPage(reply, linkInvalidPage(language, '/account/security'));
    sendPage(reply, emailChangedPage(language));
  }
}

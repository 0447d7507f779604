import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { Language } from '../../common/i18n/language';
import { PageLanguage } from '../../web/page-language.decorator';
import { PageBody } from '../../web/forms/page-body.decorator';
import { MailLinkForm } from './mail-link.form';
import { PageForm } from '../../web/forms/page-form.guard';
import { Page, sendPage } from '../../web/page';
import { PAGE_ERRORS } from '../../web/page-errors';
import { SessionService } from '../../web/session/session.service';
import { ForbiddenPageError } from '../../web/account-errors';
import { SELF_SERVICE_MESSAGES } from '../../web/pages/account/self-service-messages';
import { changeCancelledPage, emailChangedPage, emailRestoredPage, linkInvalidPage, mailLinkPage, throttledPage } from '../../web/pages/account/self-service-pages';
import type { LinkCheck } from '../mail-links/link-check';
import { AccountSecurityService } from './account-security.service';
import { queryField } from '../../web/forms/form';

/**
 * Where a refused link offers a new mail: the security page asks again for a change; a cancel or a way
 * back cannot be asked for again, but a new password (forgot password) also retires every pending change.
 */
const NEW_MAIL = { confirm: '/account/security', restore: '/account/forgot-password' } as const;

/**
 * The links of a change of address (README.md, Your account), each a page whose button alone acts:
 * `/account/confirm-new-email`, mailed to the new address, makes the change; `/account/cancel-email-change`,
 * mailed to the current address as soon as the change is asked for, cancels it; `/account/restore-email`,
 * mailed to the old address once the change is made, takes the account back (SECURITY.md, "Taking over an
 * account through a change of password or address").
 */
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
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language): Promise<void> {
    const token = tokenOf(request);
    const check = await this.security.checkEmailChange(token, request.ip);
    if (check.kind !== 'valid') return sendPage(reply, problemPage(language, check, NEW_MAIL.confirm));
    const t = SELF_SERVICE_MESSAGES[language];
    sendPage(reply, await this.linkPage(request, reply, language, { title: t.confirmNewEmailTitle, intro: t.confirmNewEmailIntro, button: t.confirmNewEmailButton, action: '/account/confirm-new-email', token }));
  }

  @Post('confirm-new-email')
  @HttpCode(200)
  @PageForm((problem) => new ForbiddenPageError(problem))
  async confirm(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language, @PageBody(MailLinkForm) form: MailLinkForm): Promise<void> {
    const outcome = await this.security.confirmEmailChange(form.token, request.ip, language);
    sendPage(reply, outcome.kind === 'valid' ? emailChangedPage(language) : problemPage(language, outcome, NEW_MAIL.confirm));
  }

  @Get('cancel-email-change')
  async cancelPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language): Promise<void> {
    const token = tokenOf(request);
    const check = await this.security.checkCancelEmailChange(token, request.ip);
    if (check.kind !== 'valid') return sendPage(reply, problemPage(language, check, NEW_MAIL.restore));
    const t = SELF_SERVICE_MESSAGES[language];
    sendPage(reply, await this.linkPage(request, reply, language, { title: t.cancelChangeTitle, intro: t.cancelChangeIntro, button: t.cancelChangeButton, action: '/account/cancel-email-change', token }));
  }

  @Post('cancel-email-change')
  @HttpCode(200)
  @PageForm((problem) => new ForbiddenPageError(problem))
  async cancel(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language, @PageBody(MailLinkForm) form: MailLinkForm): Promise<void> {
    const outcome = await this.security.cancelEmailChange(form.token, request.ip);
    sendPage(reply, outcome.kind === 'valid' ? changeCancelledPage(language) : problemPage(language, outcome, NEW_MAIL.restore));
  }

  @Get('restore-email')
  async restorePage(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language): Promise<void> {
    const token = tokenOf(request);
    const check = await this.security.checkRestoreEmail(token, request.ip);
    if (check.kind !== 'valid') return sendPage(reply, problemPage(language, check, NEW_MAIL.restore));
    const t = SELF_SERVICE_MESSAGES[language];
    sendPage(reply, await this.linkPage(request, reply, language, { title: t.restoreTitle, intro: t.restoreIntro, button: t.restoreButton, action: '/account/restore-email', token }));
  }

  @Post('restore-email')
  @HttpCode(200)
  @PageForm((problem) => new ForbiddenPageError(problem))
  async restore(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language, @PageBody(MailLinkForm) form: MailLinkForm): Promise<void> {
    const outcome = await this.security.restoreEmail(form.token, request.ip, language);
    sendPage(reply, outcome.kind === 'valid' ? emailRestoredPage(language, outcome.email) : problemPage(language, outcome, NEW_MAIL.restore));
  }

  private async linkPage(request: FastifyRequest, reply: FastifyReply, language: Language, input: { title: string; intro: string; button: string; action: string; token: unknown }): Promise<Page> {
    const session = (await this.sessions.read(request)) ?? this.sessions.start(reply);
    return mailLinkPage(language, { ...input, csrfToken: this.sessions.csrfToken(session), token: String(input.token) });
  }
}

function tokenOf(request: FastifyRequest): string | undefined {
  return queryField(request, 'token');
}

/** A link that is not (or no longer) waiting, or too many of those from this network. */
function problemPage(language: Language, check: Exclude<LinkCheck, { kind: 'valid' }>, newMail: string): Page {
  return check.kind === 'throttled' ? throttledPage(language, check.retryAfterSeconds, newMail) : linkInvalidPage(language, newMail);
}

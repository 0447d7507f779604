import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { Language } from '../../common/i18n/language';
import { PageLanguage } from '../../web/page-language.decorator';
import { PageBody } from '../../web/forms/page-body.decorator';
import { ForgotPasswordForm, ResetPasswordForm } from './password-reset.form';
import { PageForm } from '../../web/forms/page-form.guard';
import { sendPage } from '../../web/page';
import { PAGE_ERRORS } from '../../web/page-errors';
import { redirect } from '../../web/responses';
import { SessionService } from '../../web/session/session.service';
import { ForbiddenPageError } from '../../web/account-errors';
import { checkEmailPage, forgotPasswordPage, linkInvalidPage, resetPasswordPage, throttledPage, unavailablePage } from '../../web/pages/account/self-service-pages';
import type { LinkCheck } from '../mail-links/link-check';
import { PasswordResetService } from './password-reset.service';
import { queryField } from '../../web/forms/form';

const refuse = (problem: 'csrf' | 'cross_site') => new ForbiddenPageError(problem);

/** `/account/forgot-password` and `/account/reset-password` (README.md, Your account). */
@Controller('account')
@Public()
@SkipEnvelope({ errors: PAGE_ERRORS })
@ApiExcludeController()
export class PasswordResetController {
  constructor(
    private readonly resets: PasswordResetService,
    private readonly sessions: SessionService,
  ) {}

  @Get('forgot-password')
  async form(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language): Promise<void> {
    if (!this.resets.enabled) return sendPage(reply, unavailablePage(language, 'mail_off'));
    sendPage(reply, forgotPasswordPage(language, { csrfToken: await this.csrfToken(request, reply) }));
  }

  /**
   * The same redirect (303, Post/Redirect/Get) to the same "check your email" page for every address, so a
   * reload sends no second mail; a value that is not an address is said so on the form.
   */
  @Post('forgot-password')
  @HttpCode(200)
  @PageForm(refuse)
  async request(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language, @PageBody(ForgotPasswordForm) form: ForgotPasswordForm): Promise<void> {
    if (!this.resets.enabled) return sendPage(reply, unavailablePage(language, 'mail_off'));
    const requested = await this.resets.request(form.email, language, request.ip);
    if (!requested.ok) {
      return sendPage(reply, forgotPasswordPage(language, { csrfToken: await this.csrfToken(request, reply), email: form.email ?? '', problem: requested.problem }));
    }
    redirect(reply, '/account/forgot-password/sent', 303);
  }

  /** The "check your email" page a request is redirected to: it names no address. */
  @Get('forgot-password/sent')
  sent(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language): void {
    if (!this.resets.enabled) return sendPage(reply, unavailablePage(language, 'mail_off'));
    sendPage(reply, checkEmailPage(language, '/account/forgot-password'));
  }

  /** The link in the mail: the new-password form; opening it changes nothing. */
  @Get('reset-password')
  async resetForm(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language): Promise<void> {
    const token = queryField(request, 'token');
    const check = await this.resets.check(token, request.ip);
    if (check.kind !== 'valid') return this.sendLinkProblem(reply, language, check);
    sendPage(reply, resetPasswordPage(language, { csrfToken: await this.csrfToken(request, reply), token: token ?? '' }));
  }

  /** Sets the password, ends every way into the account, and sends the person to sign in, where the page says the password changed. */
  @Post('reset-password')
  @HttpCode(200)
  @PageForm(refuse)
  async reset(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language, @PageBody(ResetPasswordForm) form: ResetPasswordForm): Promise<void> {
    const outcome = await this.resets.reset(form.token, form.password, language, request.ip);
    if (outcome.kind === 'weak') {
      return sendPage(reply, resetPasswordPage(language, { csrfToken: await this.csrfToken(request, reply), token: form.token ?? '', problem: outcome.problem }));
    }
    if (outcome.kind !== 'valid') return this.sendLinkProblem(reply, language, outcome);
    redirect(reply, '/oauth/sign-in?return_to=%2Faccount&done=password_reset', 303);
  }

  private sendLinkProblem(reply: FastifyReply, language: Language, check: Exclude<LinkCheck, { kind: 'valid' }>): void {
    sendPage(reply, check.kind === 'throttled' ? throttledPage(language, check.retryAfterSeconds, '/account/forgot-password') : linkInvalidPage(language, '/account/forgot-password'));
  }

  private async csrfToken(request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const session = (await this.sessions.read(request)) ?? this.sessions.start(reply);
    return this.sessions.csrfToken(session);
  }
}

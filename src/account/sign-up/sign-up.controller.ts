import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { Language } from '../../common/i18n/language';
import { PageLanguage } from '../../web/page-language.decorator';
import { PageBody } from '../../web/forms/page-body.decorator';
import { PageForm } from '../../web/forms/page-form.guard';
import { sendPage } from '../../web/page';
import { PAGE_ERRORS } from '../../web/page-errors';
import { redirect } from '../../web/responses';
import { SessionService } from '../../web/session/session.service';
import { ForbiddenPageError } from '../../web/account-errors';
import { accountReadyPage, checkEmailPage, confirmSignUpPage, linkInvalidPage, signUpPage, throttledPage, unavailablePage } from '../../web/pages/account/self-service-pages';
import type { LinkCheck } from '../mail-links/link-check';
import { ConfirmSignUpForm, SignUpForm } from './sign-up.form';
import { SignUpService } from './sign-up.service';
import { queryField } from '../../web/forms/form';

const refuse = (problem: 'csrf' | 'cross_site') => new ForbiddenPageError(problem);

/**
 * `/account/sign-up` and `/account/confirm-email` (README.md, Your account): pages for people who are
 * not signed in, on the same session cookie (for the CSRF token of their forms) as the sign-in page.
 */
@Controller('account')
@Public()
@SkipEnvelope({ errors: PAGE_ERRORS })
@ApiExcludeController()
export class SignUpController {
  constructor(
    private readonly signUps: SignUpService,
    private readonly sessions: SessionService,
  ) {}

  @Get('sign-up')
  async form(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language): Promise<void> {
    const unavailable = this.signUps.unavailable();
    if (unavailable) return sendPage(reply, unavailablePage(language, unavailable));
    sendPage(reply, signUpPage(language, { csrfToken: await this.csrfToken(request, reply) }));
  }

  /**
   * An accepted form is always redirected (303, Post/Redirect/Get) to the same "check your email" page,
   * whether or not the address has an account: a reload or the back button shows that page again and sends
   * no second mail. A refused one answers the form with its problems.
   */
  @Post('sign-up')
  @HttpCode(200)
  @PageForm(refuse)
  async submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language, @PageBody(SignUpForm) form: SignUpForm): Promise<void> {
    const unavailable = this.signUps.unavailable();
    if (unavailable) return sendPage(reply, unavailablePage(language, unavailable));
    const outcome = await this.signUps.signUp(form, language, request.ip);
    if (!outcome.ok) {
      const csrfToken = await this.csrfToken(request, reply);
      return sendPage(reply, signUpPage(language, { csrfToken, name: outcome.name, email: outcome.email, problems: outcome.problems }));
    }
    redirect(reply, '/account/sign-up/sent', 303);
  }

  /** The "check your email" page an accepted sign-up is redirected to: it names no address. */
  @Get('sign-up/sent')
  sent(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language): void {
    const unavailable = this.signUps.unavailable();
    if (unavailable) return sendPage(reply, unavailablePage(language, unavailable));
    sendPage(reply, checkEmailPage(language, '/account/sign-up'));
  }

  /**
   * The link in the mail: a page asking for the password chosen at sign-up, with a button; opening it (a
   * mail scanner does) changes nothing.
   */
  @Get('confirm-email')
  async confirmPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language): Promise<void> {
    const token = queryField(request, 'token');
    const check = await this.signUps.check(token, request.ip);
    if (check.kind !== 'valid') return this.sendLinkProblem(reply, language, check);
    sendPage(reply, confirmSignUpPage(language, { csrfToken: await this.csrfToken(request, reply), token: token ?? '' }));
  }

  @Post('confirm-email')
  @HttpCode(200)
  @PageForm(refuse)
  async confirm(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language, @PageBody(ConfirmSignUpForm) form: ConfirmSignUpForm): Promise<void> {
    const outcome = await this.signUps.confirm(form, request.ip);
    if (outcome.kind === 'wrong_password') {
      return sendPage(reply, confirmSignUpPage(language, { csrfToken: await this.csrfToken(request, reply), token: form.token ?? '', wrongPassword: true }));
    }
    if (outcome.kind !== 'valid') return this.sendLinkProblem(reply, language, outcome);
    sendPage(reply, accountReadyPage(language));
  }

  private sendLinkProblem(reply: FastifyReply, language: Language, check: Exclude<LinkCheck, { kind: 'valid' }>): void {
    sendPage(reply, check.kind === 'throttled' ? throttledPage(language, check.retryAfterSeconds, '/account/sign-up') : linkInvalidPage(language, '/account/sign-up'));
  }

  /** The CSRF token of the browser's session, starting an anonymous session for a browser that has none. */
  private async csrfToken(request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const session = (await this.sessions.read(request)) ?? this.sessions.start(reply);
    return this.sessions.csrfToken(session);
  }
}

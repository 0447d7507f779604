import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { ApiExcludeEndpoint, ApiFoundResponse, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/decorators/public.decorator';
import { SkipEnvelope } from '../common/envelope/skip-envelope.decorator';
import { ValidationIssue } from '../common/errors/app-error';
import { Language } from '../common/i18n/language';
import { PageLanguage } from '../web/page-language.decorator';
import { appConfig } from '../config/configuration';
import { PageForm } from '../web/forms/page-form.guard';
import { ApiErrors } from '../common/openapi/envelope.schemas';
import { redirect } from '../web/responses';
import { PageBody } from '../web/forms/page-body.decorator';
import { LogoutForm } from './logout.form';
import { sendPage } from '../web/page';
import { PAGE_ERRORS } from '../web/page-errors';
import { Session, SessionService } from '../web/session/session.service';
import { HeldReturn, LogoutRefusedError, logoutConfirmPage, logoutErrorPage, signedOutPage } from '../web/pages/logout-pages';
import { LogoutService } from './logout.service';

const HTML_PAGE = { 'text/html': { schema: { type: 'string', example: '<!doctype html>…' } } };

@ApiTags('oauth')
@Controller('oauth/logout')
@SkipEnvelope({ errors: PAGE_ERRORS })
export class LogoutController {
  constructor(
    private readonly logout: LogoutService,
    private readonly sessions: SessionService,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
  ) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'End session (OpenID Connect RP-Initiated Logout 1.0)',
    description: [
      'With an `id_token_hint` this server issued for the signed-in user (or with no one signed in), ends the sign-in session at once, for every copy of its cookie and on every instance.',
      'Without one (no hint, or a hint for another user) a signed-in user is first asked to confirm on a page (a CSRF-protected form): nothing ends and nothing redirects until they choose "Sign out"; "Stay signed in" keeps the session and goes to /account.',
      'With `post_logout_redirect_uri`, which must be exactly (string equality) one of the registered redirect URIs of the client named by the `aud` of `id_token_hint` (or by `client_id`), the answer after sign-out is',
      'a 302 to it with `state`; without a valid hint, no one signed in is ever redirected (a 200 signed-out page instead), nor by the hint of an unverified application (the page links to the address). An unregistered address, an `id_token_hint` this server did not sign, or a repeated parameter:',
      'a 400 HTML page, no redirect, and the session is kept. Without `post_logout_redirect_uri`: a 200 signed-out page.',
      'An expired `id_token_hint` is accepted.',
    ].join(' '),
  })
  @ApiQuery({ name: 'id_token_hint', required: false, description: 'An ID token this server issued to the client (expired is fine).' })
  @ApiQuery({ name: 'post_logout_redirect_uri', required: false, example: 'http://localhost:8080/callback', description: 'Exactly one of the client\'s registered redirect URIs.' })
  @ApiQuery({ name: 'client_id', required: false, description: 'The client, when no `id_token_hint` is sent; must agree with its `aud` otherwise.' })
  @ApiQuery({ name: 'state', required: false, description: 'Returned unchanged on the redirect.' })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The signed-out page, or the page asking the signed-in user to confirm (HTML).', content: HTML_PAGE })
  @ApiFoundResponse({ description: 'Signed out; back to `post_logout_redirect_uri` with `state`.', headers: { Location: { schema: { type: 'string', example: 'http://localhost:8080/callback?state=af0ifjsldkj' } } } })
  @ApiResponse({ status: 400, description: 'Refused: an HTML error page, no redirect, the session kept.', content: HTML_PAGE })
  @ApiErrors()
  async end(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language): Promise<void> {
    const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const decision = await this.logout.decide(rawQuery);
    if (decision.kind === 'refused') return sendPage(reply, logoutErrorPage(language, decision.problem));
    const session = await this.sessions.read(request);
    const signedIn = session?.uid !== undefined ? String(session.uid) : null;
    // RP-Initiated Logout 1.0 §2: a valid hint for this user shows the request comes from an application
    // the user signed in to, so the session ends at once, as it always has. With no one signed in there is
    // nothing to end; the hint alone vouches for the return address.
    if (decision.subject !== null && (signedIn === null || decision.subject === signedIn)) {
      // With no one signed in, only the hint vouches for the return address, and the hint of an
      // unverified application is its own word: anyone registers one and mints hints for it. So no
      // automatic redirect there, a link instead, as for its authorization errors (RFC 9700 §4.11.2).
      if (signedIn === null && decision.location !== null && decision.unverified !== undefined) {
        return this.signOut(session, null, reply, language, { clientName: decision.unverified.clientName, location: decision.location });
      }
      return this.signOut(session, decision.location, reply, language);
    }
    if (session === null || signedIn === null) {
      // Nobody to sign out and no hint to vouch for the return address: no redirect, so this endpoint
      // never sends an anonymous visitor on to anywhere (SECURITY.md "Forced sign-out").
      return sendPage(reply, signedOutPage(language));
    }
    // Any site can link here (a GET, an image, a top-level navigation): the user confirms first.
    const redirectOrigin = decision.location === null ? undefined : new URL(decision.location).origin;
    sendPage(reply, logoutConfirmPage(language, { csrfToken: this.sessions.csrfToken(session), fields: decision.fields, redirectOrigin }));
  }

  /**
   * The confirmation form of a logout request without a valid hint. Only a post from this site with the
   * session's CSRF token counts (as for the account forms); its fields are checked again. "Stay signed in"
   * keeps the session and goes to the account page; "Sign out" ends it, then redirects as the GET would
   * have with a valid hint.
   */
  @Post()
  @Public()
  @PageForm((problem) => new LogoutRefusedError(problem))
  @ApiExcludeEndpoint()
  async confirm(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageLanguage() language: Language, @PageBody(LogoutForm, refuseRepeated) form: LogoutForm): Promise<void> {
    // PageFormGuard has refused a post from another site, or without the session's CSRF token (also one
    // without a session, or after it has ended: there is nothing of the user's to end).
    const session = await this.sessions.read(request);
    const decision = await this.logout.decideConfirmed(form);
    if (decision.kind === 'refused') return sendPage(reply, logoutErrorPage(language, decision.problem));
    if (form.decision === 'stay') return redirect(reply, '/account', 303);
    if (form.decision !== 'sign_out') return sendPage(reply, logoutErrorPage(language, 'invalid_decision'));
    // An anonymous session (its CSRF token is valid too) has nothing to end and no hint: no redirect.
    if (session?.uid === undefined) return sendPage(reply, signedOutPage(language));
    return this.signOut(session, decision.location, reply, language);
  }

  /** Ends the session on every instance (SessionService.signOut), then returns or shows the signed-out page. */
  private async signOut(session: Session | null, location: string | null, reply: FastifyReply, language: Language, held?: HeldReturn): Promise<void> {
    await this.sessions.signOut(session, reply);
    if (location !== null) return redirect(reply, location);
    sendPage(reply, signedOutPage(language, held));
  }
}

/** A field of the request that came twice (an array, not a string) is said so, as for the GET; anything else is the page error. */
function refuseRepeated(issues: ValidationIssue[]): Error | undefined {
  return issues.some((issue) => issue.constraint === 'isString') ? new LogoutRefusedError('repeated_parameter') : undefined;
}

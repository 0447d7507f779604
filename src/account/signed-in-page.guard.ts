import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../auth/decorators/public.decorator';
import { SkipEnvelope } from '../common/envelope/skip-envelope.decorator';
import { requestLanguage } from '../common/i18n/language';
import { PageForms } from '../web/forms/page-form.guard';
import { PAGE_ERRORS } from '../web/page-errors';
import { Session, SessionService } from '../web/session/session.service';
import { safeReturnPath } from '../web/forms/return-path';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { AccountPageContext } from '../web/account-errors';
import { ForbiddenPageError, SignInRequiredError } from '../web/account-errors';

/** The signed-in user of an account page, with what its forms and layout need. */
export interface SignedIn extends AccountPageContext {
  user: User;
  session: Session;
  /** The client's address (as TRUST_PROXY reports it), for security events. */
  ip: string;
}

const SIGNED_IN = Symbol('signedIn');

/**
 * The access rule of the account pages (README.md, Your account). A GET needs a signed-in session that was not
 * signed out, or the visitor is sent to the sign-in page, which returns here. A POST must come from
 * this site with the session's CSRF token and a signed-in session, or it changes nothing: a 403 page.
 */
@Injectable()
export class SignedInPageGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionService,
    private readonly forms: PageForms,
    private readonly users: UsersService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const post = request.method !== 'GET' && request.method !== 'HEAD';
    // A signed-out session reads as none: a page asks for a sign-in again, a post fails its CSRF check.
    // The form is checked (same site, then CSRF token) before the user is read: a forged post learns nothing.
    const session = post ? await this.forms.check(request, (problem) => new ForbiddenPageError(problem)) : await this.sessions.read(request);
    const user = session?.uid ? await this.users.findById(session.uid) : null;
    if (!session || !user) {
      if (post) throw new ForbiddenPageError('signed_out');
      throw new SignInRequiredError(safeReturnPath(request.url));
    }
    const signedIn: SignedIn = {
      user,
      session,
      ip: request.ip,
      language: requestLanguage(request),
      csrfToken: this.sessions.csrfToken(session),
    };
    (request as unknown as Record<symbol, SignedIn>)[SIGNED_IN] = signedIn;
    return true;
  }
}

/**
 * A controller of account pages: HTML for people (no envelope, not in the API reference), reached with
 * the sign-in session instead of a token, and guarded by SignedInPageGuard.
 */
export const AccountPages = () => applyDecorators(Public(), SkipEnvelope({ errors: PAGE_ERRORS }), ApiExcludeController(), UseGuards(SignedInPageGuard));

/** The request's SignedIn, as the guard found it (undefined before the guard ran). */
export function signedInOf(request: FastifyRequest): SignedIn | undefined {
  return (request as unknown as Record<symbol, SignedIn | undefined>)[SIGNED_IN];
}

/** The handler's SignedIn, as the guard found it. */
export const CurrentAccount = createParamDecorator((_data: unknown, context: ExecutionContext): SignedIn => {
  return signedInOf(context.switchToHttp().getRequest<FastifyRequest>())!;
});

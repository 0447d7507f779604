import type { FastifyReply } from 'fastify';
import { RenderedError } from '../common/errors/rendered-error';
import { Language } from '../common/i18n/language';
import { Page, sendPage } from './page';
import { ACCOUNT_MESSAGES, ForbiddenProblem } from './pages/account/account-messages';

/** What every account page needs from the signed-in request (the account pages' guard provides it). */
export interface AccountPageContext {
  language: Language;
  /** The CSRF token of the session, for every form on the page. */
  csrfToken: string;
}

/**
 * README.md, Your account: a POST without a valid CSRF token, from another site, without a signed-in session, or
 * for something the user does not own changes nothing and is answered with a 403 page.
 */
export class ForbiddenPageError extends RenderedError {
  constructor(readonly problem: ForbiddenProblem) {
    super(`account page refused: ${problem}`);
  }

  render(reply: FastifyReply, context: { language: Language }): void {
    sendPage(reply, forbiddenPage(context.language, this.problem));
  }
}

export function forbiddenPage(language: Language, problem: ForbiddenProblem): Page {
  const t = ACCOUNT_MESSAGES[language];
  const link = problem === 'signed_out' ? { href: '/oauth/sign-in?return_to=%2Faccount', text: t.signInAgain } : { href: '/account', text: t.backToAccount };
  return {
    status: 403,
    language,
    title: t.forbiddenTitle,
    view: 'error',
    data: { heading: t.forbiddenTitle, problem: `${t.forbidden[problem]} ${t.nothingChanged}`, link },
  };
}

/**
 * An account page asked for without a signed-in session: 303 to the one sign-in page, which returns
 * to the page asked for (README.md, Your account).
 */
export class SignInRequiredError extends RenderedError {
  constructor(readonly returnTo: string) {
    super('sign-in required');
  }

  render(reply: FastifyReply): void {
    reply
      .status(303)
      .headers({ location: `/oauth/sign-in?return_to=${encodeURIComponent(this.returnTo)}`, 'cache-control': 'no-store', pragma: 'no-cache' })
      .send();
  }
}

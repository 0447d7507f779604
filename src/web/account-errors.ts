import type { FastifyReply } from 'fastify';
import { RenderedError } from '../common/errors/rendered-error';
import { Language } from '../common/i18n/language';
import { Page, sendPage } from './page';
import { ACCOUNT_MESSAGES, ForbiddenProblem } from './pages/account/account-messages';
import { confirmAccessLink, confirmAccessPage } from './pages/account/confirm-access-page';

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

/** What the confirm-access page offers an account (RecentProofService.offers decides it). */
export interface ProofOffers {
  /** A code field: the account has the authenticator app. */
  code: boolean;
  /** The passkey ceremony's options, bound to the session. */
  passkeyOptions: string;
}

/**
 * An action refused for want of a recent proof (SECURITY.md, "A borrowed session adding a way in"),
 * thrown by RecentProofGuard before the handler reads the form: 403 with the confirm-access page, which
 * returns to `returnTo` (the page of the action's form) once the proof is given. Nothing changed.
 */
export class ProofRequiredError extends RenderedError {
  constructor(
    readonly account: AccountPageContext,
    readonly returnTo: string,
    readonly offers: ProofOffers,
  ) {
    super('recent proof required');
  }

  page(): Page {
    return confirmAccessPage(this.account, { returnTo: this.returnTo, ...this.offers, asked: true, status: 403 });
  }

  render(reply: FastifyReply): void {
    sendPage(reply, this.page());
  }
}

/** A page that starts a ceremony, asked for without a recent proof: 303 to confirm-access, which returns to it. */
export class ProofRequiredRedirect extends RenderedError {
  constructor(readonly returnTo: string) {
    super('recent proof required');
  }

  render(reply: FastifyReply): void {
    reply.status(303).headers({ location: confirmAccessLink(this.returnTo), 'cache-control': 'no-store', pragma: 'no-cache' }).send();
  }
}

// The pages and words of views/logout/*.eta, in tr and en: LogoutController (src/oidc/logout.controller.ts).
import type { FastifyReply } from 'fastify';
import { RenderedError } from '../../common/errors/rendered-error';
import { Language } from '../../common/i18n/language';
import { Page, sendPage } from '../page';
import { emphasised, sentenceWithName } from '../text';
import { PAGE_MESSAGES } from './messages';

/** Why a logout request is refused without a redirect (RP-Initiated Logout 1.0 §3), the session kept. */
export type LogoutProblem =
  | 'invalid_id_token_hint'
  | 'unregistered_post_logout_redirect_uri'
  | 'unknown_client'
  | 'repeated_parameter'
  | 'invalid_decision'
  | 'cross_site'
  | 'csrf';

/** A post of the confirmation form that this server cannot tell came from the user's own page: 403. */
const FORBIDDEN: ReadonlySet<LogoutProblem> = new Set(['cross_site', 'csrf']);

const MESSAGES = {
  tr: {
    signedOutTitle: 'Oturumunuz kapatıldı',
    signedOut: '{platform} oturumunuz kapatıldı. Bu pencereyi kapatabilir ya da uygulamaya dönebilirsiniz.',
    confirmTitle: '{platform} oturumunuz kapatılsın mı?',
    confirm: 'Bir uygulama ya da bağlantı, {platform} oturumunuzu kapatmak istiyor. Bunu siz istediyseniz oturumu kapatın; istemediyseniz oturumunuz açık kalır.',
    signOut: 'Oturumu kapat',
    stay: 'Oturumum açık kalsın',
    errorTitle: 'Oturum kapatma isteği işlenemedi',
    problem: {
      invalid_id_token_hint: 'İstekteki kimlik belirteci (id_token_hint) bu sunucunun verdiği geçerli bir belirteç değil.',
      unregistered_post_logout_redirect_uri: 'Dönüş adresi (post_logout_redirect_uri) bu uygulama için kayıtlı değil.',
      unknown_client: 'Dönüş adresinin hangi uygulamaya ait olduğu belirlenemedi; id_token_hint ya da client_id gönderilmeli.',
      repeated_parameter: 'Bir parametre birden fazla kez gönderilmiş.',
      invalid_decision: 'Formda oturumu kapatma ya da açık tutma seçeneklerinden biri seçilmemiş.',
      cross_site: 'İstek bu sitenin bir sayfasından gönderilmemiş.',
      csrf: 'Form süresi dolmuş ya da başka bir oturuma ait; sayfayı yeniden açıp tekrar deneyin.',
    },
    advice: 'Güvenliğiniz için uygulamaya geri yönlendirilmediniz ve oturumunuz açık kaldı. Uygulamanın geliştiricisine başvurun.',
    backToAccount: 'Hesabınıza dönün',
  },
  en: {
    signedOutTitle: 'You are signed out',
    signedOut: 'You are signed out of {platform}. You may close this window or go back to the application.',
    confirmTitle: 'Sign out of {platform}?',
    confirm: 'An application or a link asks to sign you out of {platform}. If you asked for this, sign out; if not, you stay signed in.',
    signOut: 'Sign out',
    stay: 'Stay signed in',
    errorTitle: 'The sign-out request cannot be processed',
    problem: {
      invalid_id_token_hint: 'The identity token in the request (id_token_hint) is not a valid token of this server.',
      unregistered_post_logout_redirect_uri: 'The return address (post_logout_redirect_uri) is not registered for this application.',
      unknown_client: 'The application the return address belongs to cannot be told: send id_token_hint or client_id.',
      repeated_parameter: 'A parameter was sent more than once.',
      invalid_decision: 'The form chose neither to sign out nor to stay signed in.',
      cross_site: 'The request was not sent from a page of this site.',
      csrf: 'The form has expired or belongs to another session; open the page again and retry.',
    },
    advice: 'For your safety you were not sent back to the application, and you are still signed in. Please contact its developer.',
    backToAccount: 'Back to your account',
  },
} satisfies Record<Language, unknown>;

/** RP-Initiated Logout 1.0 §2 without a return address: the session has ended (or there was none); say so. */
/** The way back to an unverified application that the signed-out page offers instead of a redirect. */
export interface HeldReturn {
  clientName: string;
  /** Its registered redirect URI with `state`: https, or http on a loopback host. */
  location: string;
}

/**
 * The signed-out page; with `held`, also the application's return address as a plain link, named by its
 * host, which the user may follow or not (an unverified application, no one signed in).
 */
export function signedOutPage(language: Language, held?: HeldReturn): Page {
  const t = MESSAGES[language];
  const words = PAGE_MESSAGES[language].held;
  const back =
    held === undefined
      ? undefined
      : { explanation: sentenceWithName(words.explanation, held.clientName), advice: words.advice, link: held.location, label: emphasised(words.link, new URL(held.location).host) };
  return { status: 200, language, title: t.signedOutTitle, view: 'logout/signed-out', data: { t, back } };
}

/**
 * RP-Initiated Logout 1.0 §2 ("the OP SHOULD ask the End-User whether to log out"): a request without an
 * `id_token_hint` for the signed-in user may come from any site, so nothing ends until the user posts
 * this form (SECURITY.md "Forced sign-out"). The request's own fields ride along in hidden inputs and
 * are validated again on the post; `redirectOrigin` is where a confirmed sign-out may be sent on to
 * (Chromium applies `form-action` to the redirect that follows the post).
 */
export function logoutConfirmPage(language: Language, input: { csrfToken: string; fields: { clientId?: string; postLogoutRedirectUri?: string; state?: string }; redirectOrigin?: string }): Page {
  const t = MESSAGES[language];
  const hidden: Array<[string, string | undefined]> = [
    ['csrf_token', input.csrfToken],
    ['client_id', input.fields.clientId],
    ['post_logout_redirect_uri', input.fields.postLogoutRedirectUri],
    ['state', input.fields.state],
  ];
  const fields = hidden.filter((field): field is [string, string] => field[1] !== undefined);
  return {
    status: 200,
    language,
    title: t.confirmTitle,
    view: 'logout/confirm',
    data: { t, fields },
    formTargets: input.redirectOrigin === undefined ? [] : [input.redirectOrigin],
  };
}

/**
 * A refused logout request: 400 (403 for a post this server cannot tell the user sent), no redirect,
 * the session untouched, and a way back to the account page.
 */
export function logoutErrorPage(language: Language, problem: LogoutProblem): Page {
  const t = MESSAGES[language];
  return {
    status: FORBIDDEN.has(problem) ? 403 : 400,
    language,
    title: t.errorTitle,
    view: 'error',
    data: { heading: t.errorTitle, problem: t.problem[problem], advice: t.advice, link: { href: '/account', text: t.backToAccount } },
  };
}

/** A post of the confirmation form refused by PageFormGuard (another site, or not the session's token): 403, nothing ends. */
export class LogoutRefusedError extends RenderedError {
  constructor(readonly problem: LogoutProblem) {
    super(`logout form refused: ${problem}`);
  }

  render(reply: FastifyReply, context: { language: Language }): void {
    sendPage(reply, logoutErrorPage(context.language, this.problem));
  }
}

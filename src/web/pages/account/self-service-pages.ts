import { Language } from '../../../common/i18n/language';
import type { EmailProblem } from '../../../common/text/email-address';
import { Page } from '../../page';
import { emphasised, Emphasis } from '../../text';
import type { PasswordProblem } from '../../../users/password.outcomes';
import { SELF_SERVICE_MESSAGES, SignUpProblem, Unavailable } from './self-service-messages';

/**
 * A page a person uses without being signed in (README.md, Your account): the platform's name above it,
 * no navigation, forms posting to this site only. Pages reached from a link in a mail send
 * `Referrer-Policy: no-referrer` (the token is in their address), as the layout's meta tag also says.
 */
function publicPage(language: Language, input: { title: string; view: string; data: object; status?: number; headers?: Record<string, string> }): Page {
  return {
    status: input.status ?? 200,
    language,
    title: input.title,
    platformInTitle: true,
    view: input.view,
    data: input.data,
    formTargets: [],
    headers: input.headers,
  };
}

/** The headers of a page whose address holds a mail link's token. */
export const NO_REFERRER = { 'referrer-policy': 'no-referrer' };

function notice(
  language: Language,
  input: { title: string; alert?: string; paragraphs: Array<string | Emphasis>; links?: Array<{ href: string; text: string }>; status?: number; headers?: Record<string, string> },
): Page {
  const paragraphs = input.paragraphs.map((p) => (typeof p === 'string' ? { before: p, value: '', after: '' } : p));
  return publicPage(language, {
    title: input.title,
    view: 'account/notice',
    data: { heading: input.title, alert: input.alert, paragraphs, links: input.links ?? [] },
    status: input.status,
    headers: input.headers,
  });
}

/** `GET /account/sign-up`: fields `name`, `email`, `password`; after a refused post, its problems and the name and email typed (never the password). */
export function signUpPage(language: Language, input: { csrfToken: string; name?: string; email?: string; problems?: SignUpProblem[] }): Page {
  const t = SELF_SERVICE_MESSAGES[language];
  const problems = input.problems ?? [];
  const words = problems.map((p) => (p.field === 'name' ? t.nameProblem[p.problem] : p.field === 'email' ? t.emailProblem[p.problem] : t.passwordProblem[p.problem]));
  const invalid = { name: problems.some((p) => p.field === 'name'), email: problems.some((p) => p.field === 'email'), password: problems.some((p) => p.field === 'password') };
  return publicPage(language, {
    title: t.signUpTitle,
    view: 'account/sign-up',
    data: { t, csrfToken: input.csrfToken, name: input.name ?? '', email: input.email ?? '', problems: words, invalid },
    status: problems.length > 0 ? 400 : 200,
  });
}

/**
 * `GET /account/sign-up/sent` and `GET /account/forgot-password/sent`, where an accepted form is redirected
 * (303, Post/Redirect/Get: a reload sends no second mail). It names no address, so it is the same page
 * whatever the address and whether or not it has an account; a typo is fixed on the form it links to.
 */
export function checkEmailPage(language: Language, form: string): Page {
  const t = SELF_SERVICE_MESSAGES[language];
  return notice(language, { title: t.checkEmailTitle, paragraphs: [t.checkEmailSent, t.checkEmailAdvice], links: [{ href: form, text: t.checkEmailTypo }] });
}

/** The page a mail's link opens: only its button (a POST) acts, since mail scanners open links. */
export function mailLinkPage(language: Language, input: { title: string; intro: string; button: string; action: string; csrfToken: string; token: string }): Page {
  return publicPage(language, {
    title: input.title,
    view: 'account/mail-link',
    data: {
      heading: input.title,
      intro: input.intro,
      button: input.button,
      action: input.action,
      fields: [
        ['csrf_token', input.csrfToken],
        ['token', input.token],
      ],
    },
    headers: NO_REFERRER,
  });
}

/**
 * The page of a sign-up's link: field `password`, the one chosen at sign-up (SECURITY.md, "Pre-registering
 * someone else's address"), the token in a hidden field; after a wrong one, says so (400).
 */
export function confirmSignUpPage(language: Language, input: { csrfToken: string; token: string; wrongPassword?: boolean }): Page {
  const t = SELF_SERVICE_MESSAGES[language];
  return publicPage(language, {
    title: t.confirmTitle,
    view: 'account/confirm-sign-up',
    data: {
      t,
      fields: [
        ['csrf_token', input.csrfToken],
        ['token', input.token],
      ],
      problem: input.wrongPassword ? t.confirmWrongPassword : undefined,
    },
    status: input.wrongPassword ? 400 : 200,
    headers: NO_REFERRER,
  });
}

/** A used, expired or unknown link: says so, changes nothing, and offers a new mail. */
export function linkInvalidPage(language: Language, newMail: string): Page {
  const t = SELF_SERVICE_MESSAGES[language];
  return notice(language, { title: t.linkInvalidTitle, alert: t.linkInvalid, paragraphs: [], links: [{ href: newMail, text: t.newMailLink }], status: 400, headers: NO_REFERRER });
}

export function accountReadyPage(language: Language): Page {
  const t = SELF_SERVICE_MESSAGES[language];
  return notice(language, { title: t.accountReadyTitle, paragraphs: [t.accountReady], links: [{ href: '/oauth/sign-in?return_to=%2Faccount', text: t.signInLink }], headers: NO_REFERRER });
}

/** Sign-up closed, or mail turned off in production: the page says so (404, nothing to use here). */
export function unavailablePage(language: Language, why: Unavailable): Page {
  const t = SELF_SERVICE_MESSAGES[language];
  return notice(language, { title: t.unavailableTitle, alert: t.unavailable[why], paragraphs: [], links: [{ href: '/oauth/sign-in?return_to=%2Faccount', text: t.signInLink }], status: 404 });
}

/**
 * Too many links that do not work tried from one network (SECURITY.md, "Guessing mail links"): 429 with
 * Retry-After, and the page says how long to wait (whole minutes, rounded up) and offers a new mail at
 * `newMail`, since a valid link works whatever the count.
 */
export function throttledPage(language: Language, retryAfterSeconds: number, newMail: string): Page {
  const t = SELF_SERVICE_MESSAGES[language];
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  const wait = language === 'tr' ? `${minutes} dakika` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return notice(language, {
    title: t.throttledTitle,
    alert: t.throttledWait.replace('{}', wait),
    paragraphs: [t.throttledNewMail],
    links: [{ href: newMail, text: t.newMailLink }],
    status: 429,
    headers: { ...NO_REFERRER, 'retry-after': String(retryAfterSeconds) },
  });
}

/** `GET /account/forgot-password`: field `email`. */
export function forgotPasswordPage(language: Language, input: { csrfToken: string; email?: string; problem?: EmailProblem }): Page {
  const t = SELF_SERVICE_MESSAGES[language];
  return publicPage(language, {
    title: t.forgotTitle,
    view: 'account/forgot-password',
    data: { t, csrfToken: input.csrfToken, email: input.email ?? '', problem: input.problem ? t.emailProblem[input.problem] : undefined },
    status: input.problem ? 400 : 200,
  });
}

/** The page of a reset link: field `password`, the token carried in a hidden field. */
export function resetPasswordPage(language: Language, input: { csrfToken: string; token: string; problem?: PasswordProblem }): Page {
  const t = SELF_SERVICE_MESSAGES[language];
  return publicPage(language, {
    title: t.resetTitle,
    view: 'account/reset-password',
    data: {
      t,
      fields: [
        ['csrf_token', input.csrfToken],
        ['token', input.token],
      ],
      problem: input.problem === undefined ? undefined : t.passwordProblem[input.problem],
    },
    status: input.problem === undefined ? 200 : 400,
    headers: NO_REFERRER,
  });
}

/** The address of the account changed (the POST behind the link mailed to the new address). */
export function emailChangedPage(language: Language): Page {
  const t = SELF_SERVICE_MESSAGES[language];
  // Every session of the account ended with the change: the way on is signing in with the new address.
  return notice(language, { title: t.emailChangedTitle, paragraphs: [t.emailChanged], links: [{ href: '/oauth/sign-in?return_to=%2Faccount', text: t.signInLink }], headers: NO_REFERRER });
}

/** The pending change of address was cancelled (the link mailed to the current address). */
export function changeCancelledPage(language: Language): Page {
  const t = SELF_SERVICE_MESSAGES[language];
  return notice(language, { title: t.changeCancelledTitle, paragraphs: [t.changeCancelled], links: [{ href: '/account/forgot-password', text: t.resetNowLink }], headers: NO_REFERRER });
}

/** The old address is back (the way back mailed to it); a reset link is on its way there. */
export function emailRestoredPage(language: Language, email: string): Page {
  const t = SELF_SERVICE_MESSAGES[language];
  return notice(language, { title: t.restoredTitle, paragraphs: [emphasised(t.restored, email), t.restoredAdvice], headers: NO_REFERRER });
}

/** After Delete account: the session is gone, so a page of its own. */
export function accountDeletedPage(language: Language): Page {
  const t = SELF_SERVICE_MESSAGES[language];
  return notice(language, { title: t.deletedTitle, paragraphs: [t.deleted], links: [{ href: '/account/sign-up', text: t.signUpTitle }] });
}

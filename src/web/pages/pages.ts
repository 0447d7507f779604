import { Language } from '../../common/i18n/language';
import { SCOPE_DESCRIPTIONS, inDisplayOrder, isKnownScope } from '../../common/scopes';
import type { AuthorizationErrorCode } from '../../common/errors/oauth-error';
import { DEVICE_MESSAGES } from './device-messages';
import { embeddedJson, Page, PASSKEY_SCRIPTS } from '../page';
import { emphasised, plainSentence, sentenceWithName } from '../text';
import { PAGE_MESSAGES } from './messages';
import type { FormProblem, FormState, PageFlow, RequestProblem } from '../outcomes';

/** The hidden inputs of a form of the flow, in order, for `views/partials/hidden-inputs.eta`. */
function hiddenFields(state: FormState): Array<[string, string]> {
  const fields: Array<[string, string]> = [['csrf_token', state.csrfToken]];
  if (state.transaction !== undefined) fields.push(['transaction', state.transaction]);
  if (state.returnTo !== undefined) fields.push(['return_to', state.returnTo]);
  if (state.userCode !== undefined) fields.push(['user_code', state.userCode]);
  if (state.secondFactor !== undefined) fields.push(['second_factor', state.secondFactor]);
  return fields;
}

/** The sign-in page's links to sign-up and to a forgotten password, each shown only when that page is on. */
export interface SelfServiceLinks {
  signUp: boolean;
  forgotPassword: boolean;
}

/**
 * docs/integrate-with-oauth.md: inputs `email` and `password`, plus the hidden inputs to post back as they are. The
 * same page signs in for an application (`clientName`, whose redirect origin the form may end up at)
 * and for the account pages (README.md, Your account: no client, back to the page asked for).
 */
export function signInPage(input: {
  language: Language;
  clientName?: string;
  redirectOrigin?: string;
  form: FormState;
  email?: string;
  problem?: 'invalid_credentials' | 'throttled' | 'sign_in_expired' | 'passkey_refused' | 'passkey_needed' | 'passkey_unverified';
  status?: number;
  headers?: Record<string, string>;
  /**
   * Set for an unverified application: the host of this request's redirect URI. The page says what its
   * consent page says (SECURITY.md, "Unverified applications"), before the user gives a password for it.
   */
  unverified?: { redirectHost: string };
  /** The options of **Sign in with a passkey** and of the email field's passkey autofill (JSON). */
  passkeyOptions?: string;
  /** Which of the pages a person uses alone are on, linked below the form (README.md, Your account). */
  selfService?: SelfServiceLinks;
  /** Said above the form: the password was just reset. */
  notice?: 'password_reset';
}): Page {
  const t = PAGE_MESSAGES[input.language];
  const alerts = { throttled: t.throttled, invalid_credentials: t.invalidCredentials, sign_in_expired: t.signInExpired, passkey_refused: t.passkeyRefused, passkey_needed: t.passkeyNeeded, passkey_unverified: t.passkeyUnverified };
  const data = {
    t,
    intro:
      input.clientName !== undefined
        ? sentenceWithName(t.signInIntro, input.clientName)
        : plainSentence(input.form.returnTo?.startsWith('/device') ? t.signInForDevice : t.signInToAccount),
    unverified: input.unverified && { sentTo: emphasised(t.consentSentTo, input.unverified.redirectHost) },
    alert: input.problem ? alerts[input.problem] : undefined,
    notice: input.notice === 'password_reset' ? t.passwordResetSignIn : undefined,
    invalid: input.problem === 'invalid_credentials',
    fields: hiddenFields(input.form),
    email: input.email ?? '',
    passkey: input.passkeyOptions === undefined ? undefined : embeddedJson(input.passkeyOptions),
    signUp: input.selfService?.signUp === true,
    forgotPassword: input.selfService?.forgotPassword === true,
  };
  return {
    status: input.status ?? 200,
    language: input.language,
    title: t.signInTitle,
    view: 'oauth/sign-in',
    data,
    formTargets: input.redirectOrigin === undefined ? [] : [input.redirectOrigin],
    headers: input.headers,
    scripts: input.passkeyOptions === undefined ? undefined : PASSKEY_SCRIPTS,
  };
}

/**
 * The second step of a password sign-in for an account with an authenticator app (docs/second-factor.md):
 * field `code` (a TOTP code or a recovery code) posted to the same `sign-in` with the sealed password
 * step and the hidden inputs of the first page.
 */
export function secondFactorPage(input: {
  language: Language;
  clientName?: string;
  redirectOrigin?: string;
  form: FormState;
  problem?: 'invalid_code' | 'throttled';
  status?: number;
  headers?: Record<string, string>;
  stepUp?: boolean;
}): Page {
  const t = PAGE_MESSAGES[input.language];
  const data = {
    t,
    intro: input.stepUp ? t.codeIntroStepUp : t.codeIntro,
    alert: input.problem === undefined ? undefined : input.problem === 'throttled' ? t.throttled : t.invalidCode,
    invalid: input.problem === 'invalid_code',
    fields: hiddenFields(input.form),
  };
  return {
    status: input.status ?? 200,
    language: input.language,
    title: t.codeTitle,
    view: 'oauth/second-factor',
    data,
    formTargets: input.redirectOrigin === undefined ? [] : [input.redirectOrigin],
    headers: input.headers,
  };
}

/**
 * docs/integrate-with-oauth.md: the client and each scope in plain words; two buttons `decision` = approve / deny.
 * For an application the operator has not verified, it says so and names the host the user will be
 * sent to either way (RFC 9700 §4.11.2, RFC 6819 §4.2.4: the user judges where they are going); a
 * verified application's page says neither.
 */
export function consentPage(input: {
  language: Language;
  clientName: string;
  userLabel: string;
  scopes: string[];
  /** The origin of the redirect URI; none in the device flow, whose form only posts to this server. */
  redirectOrigin?: string;
  form: FormState;
  /**
   * Set for an unverified application: the host of the redirect URI of this request, or, in the device
   * flow (RFC 8628 §5.4, remote phishing), that the device showing the code gets the access.
   */
  unverified?: { redirectHost: string; clientIdHost?: string } | { device: true };
  /** The device flow: the code the user entered, shown to be compared with the device's screen. */
  userCode?: string;
}): Page {
  const t = PAGE_MESSAGES[input.language];
  const d = DEVICE_MESSAGES[input.language];
  const unverified = input.unverified;
  const data = {
    t,
    signedInAs: t.signedInAs(input.userLabel),
    intro: sentenceWithName(t.consentIntro, input.clientName),
    scopes: inDisplayOrder(input.scopes).map((scope) => ({ words: isKnownScope(scope) ? SCOPE_DESCRIPTIONS[scope][input.language] : scope, name: scope })),
    userCode: input.userCode === undefined ? undefined : emphasised(d.codeOnDevice, input.userCode),
    unverified:
      unverified &&
      ('redirectHost' in unverified
        ? {
            sentTo: emphasised(t.consentSentTo, unverified.redirectHost),
            // A client known by its metadata document: the host that describes it, in full.
            identifiedBy: unverified.clientIdHost === undefined ? undefined : emphasised(t.consentIdentifiedBy, unverified.clientIdHost),
          }
        : { device: d.unverifiedDevice }),
    // Focus starts on Allow only where there is nothing more to read: with a warning or a code to compare
    // (RFC 8628 §5.4, remote phishing), pressing Enter on arrival must not approve.
    autofocus: unverified === undefined && input.userCode === undefined,
    fields: hiddenFields(input.form),
  };
  return { status: 200, language: input.language, title: t.consentTitle, view: 'oauth/consent', data, formTargets: input.redirectOrigin === undefined ? [] : [input.redirectOrigin] };
}

/** An authorization request that cannot be redirected (RFC 6749 §4.1.2.1): status 400, no link back. */
export function requestErrorPage(language: Language, problem: RequestProblem, detail?: string): Page {
  const t = PAGE_MESSAGES[language];
  const page = errorPage(language, 400, t.requestProblem[problem], t.requestAdvice);
  return detail === undefined ? page : { ...page, data: { ...page.data, detail } };
}

/**
 * An authorization error of an unverified application that the user has neither acted for in this
 * flow nor allowed before (RFC 9700 §4.11.2: not an open redirector for whoever registers an
 * application): status 400, the error in plain words, and a plain link to the redirect the
 * application would have received, which the user may follow or not. `location` is built from a
 * registered redirect URI (https, or http on a loopback host); anything else is shown as text only.
 */
export function heldErrorPage(input: {
  language: Language;
  clientName: string;
  error: AuthorizationErrorCode;
  location: string;
  /**
   * A request with `response_mode=form_post`: the way back is a button posting these fields to the
   * redirect URI, as the application asked, instead of a link (no script: the user decides).
   */
  formPost?: { redirectUri: string; fields: Record<string, string | undefined> };
}): Page {
  const t = PAGE_MESSAGES[input.language];
  const url = new URL(input.formPost?.redirectUri ?? input.location);
  const followable = url.protocol === 'https:' || url.protocol === 'http:';
  const data = {
    t,
    error: input.error,
    explanation: sentenceWithName(t.held.explanation, input.clientName),
    back: emphasised(t.held.link, url.host),
    formPost: followable && input.formPost ? { action: input.formPost.redirectUri, fields: responseFields(input.formPost.fields) } : undefined,
    link: followable ? input.location : undefined,
  };
  return {
    status: 400,
    language: input.language,
    title: t.errorTitle,
    view: 'oauth/held-error',
    data,
    formTargets: input.formPost && followable ? [url.origin] : undefined,
  };
}

/** The authorization response as hidden inputs, in order; unset values are left out. */
function responseFields(fields: Record<string, string | undefined>): Array<[string, string]> {
  return Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined);
}

/**
 * The one script any page of the flow runs: it submits the form post response at once. The CSP
 * allows this exact text by its hash (pagePolicy), so no other script, injected or not, can run.
 */
export const FORM_POST_SCRIPT = 'document.forms[0].submit();';

/**
 * OAuth 2.0 Form Post Response Mode §2: the authorization response (`code`, or `error` and
 * `error_description`, with `state` and `iss`) as hidden fields of a form posted to the redirect URI,
 * so that it never appears in a URL, the browser's history or a Referer (RFC 9700 §4.2.4). The page
 * submits itself with FORM_POST_SCRIPT; with scripts off the user presses the button. Only the
 * redirect URI's origin is a form target.
 */
export function formPostPage(input: { language: Language; redirectUri: string; fields: Record<string, string | undefined> }): Page {
  const t = PAGE_MESSAGES[input.language];
  const url = new URL(input.redirectUri);
  const data = { t, sending: emphasised(t.formPost.sending, url.host), action: input.redirectUri, fields: responseFields(input.fields) };
  return { status: 200, language: input.language, title: t.formPost.title, view: 'oauth/form-post', data, formTargets: [url.origin], script: FORM_POST_SCRIPT };
}

/** A refused form post (CSRF, cross-site, expired request). */
export function formErrorPage(language: Language, problem: FormProblem, flow?: PageFlow): Page {
  const t = PAGE_MESSAGES[language];
  return errorPage(language, problem === 'transaction' ? 400 : 403, t.formProblem[problem], t.formAdvice, flow);
}

/**
 * Any other failure on a page of the flow (the database unreachable, an unexpected error, a request
 * the server cannot read): a page in the browser's language, with the status the API would give, and
 * nothing about the cause.
 */
export function failurePage(language: Language, status: number, headers: Record<string, string> = {}, flow?: PageFlow): Page {
  const t = PAGE_MESSAGES[language];
  const problem = status === 503 ? t.failure.unavailable : status >= 500 ? t.failure.unexpected : t.failure.invalid;
  return { ...errorPage(language, status, problem, t.failureAdvice, flow), headers };
}

function errorPage(language: Language, status: number, problem: string, advice: string, flow?: PageFlow): Page {
  const t = PAGE_MESSAGES[language];
  const d = DEVICE_MESSAGES[language];
  // A way out of every error page: back to entering the code, or the user's account on this platform
  // (the application's own address is not to be trusted here: RFC 6749 §4.1.2.1).
  const next = flow === 'device' ? { advice: d.retryAdvice, link: { href: '/device', text: d.enterCode } } : { advice, link: { href: '/account', text: t.toAccount } };
  return { status, language, title: t.errorTitle, view: 'error', data: { heading: t.errorTitle, problem, ...next } };
}

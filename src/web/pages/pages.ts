import { Language } from '../../common/i18n/language';
import { SCOPE_DESCRIPTIONS, inDisplayOrder, isKnownScope } from '../../auth/scopes';
import type { AuthorizationErrorCode } from '../../oauth/authorize/authorize.errors';
import { DEVICE_MESSAGES } from './device-messages';
import { escapeHtml, Page, sentenceWithName } from '../page';
import { FormProblem, PAGE_MESSAGES, RequestProblem } from './messages';

/**
 * What every form of the flow posts back untouched: the CSRF token, and either the sealed pending
 * authorization request or, for a sign-in asked for by an account page, the page to return to.
 */
export interface FormState {
  csrfToken: string;
  transaction?: string;
  returnTo?: string;
  /** The device flow's consent form: the user code it decides on (RFC 8628 §3.3), normalised. */
  userCode?: string;
}

function hiddenInputs(state: FormState): string {
  const inputs = [`<input type="hidden" name="csrf_token" value="${escapeHtml(state.csrfToken)}">`];
  if (state.transaction !== undefined) inputs.push(`<input type="hidden" name="transaction" value="${escapeHtml(state.transaction)}">`);
  if (state.returnTo !== undefined) inputs.push(`<input type="hidden" name="return_to" value="${escapeHtml(state.returnTo)}">`);
  if (state.userCode !== undefined) inputs.push(`<input type="hidden" name="user_code" value="${escapeHtml(state.userCode)}">`);
  return inputs.join('\n');
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
  problem?: 'invalid_credentials' | 'throttled';
  status?: number;
  headers?: Record<string, string>;
}): Page {
  const t = PAGE_MESSAGES[input.language];
  const alert = input.problem ? t[input.problem === 'throttled' ? 'throttled' : 'invalidCredentials'] : undefined;
  const invalid = input.problem === 'invalid_credentials' ? ' aria-invalid="true" aria-describedby="problem"' : '';
  const body = `<h1>${escapeHtml(t.signInTitle)}</h1>
<p>${input.clientName === undefined ? escapeHtml(t.signInToAccount) : sentenceWithName(t.signInIntro, input.clientName)}</p>
${alert ? `<p class="alert" id="problem" role="alert">${escapeHtml(alert)}</p>` : ''}
<form method="post" action="sign-in">
${hiddenInputs(input.form)}
<label for="email">${escapeHtml(t.email)}</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(input.email ?? '')}"${invalid}>
<label for="password">${escapeHtml(t.password)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}>
<div class="actions"><button type="submit">${escapeHtml(t.signIn)}</button></div>
</form>`;
  return {
    status: input.status ?? 200,
    language: input.language,
    title: t.signInTitle,
    body,
    formTargets: input.redirectOrigin === undefined ? [] : [input.redirectOrigin],
    headers: input.headers,
  };
}

/** A sentence of the catalogue with `{}` replaced by a value in bold; every part escaped. */
function emphasised(template: string, value: string): string {
  const [before, after = ''] = template.split('{}');
  return `${escapeHtml(before)}<strong>${escapeHtml(value)}</strong>${escapeHtml(after)}`;
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
  unverified?: { redirectHost: string } | { device: true };
  /** The device flow: the code the user entered, shown to be compared with the device's screen. */
  userCode?: string;
}): Page {
  const t = PAGE_MESSAGES[input.language];
  const d = DEVICE_MESSAGES[input.language];
  const unverified = input.unverified;
  const warning = unverified
    ? `<div class="warning" id="unverified">
<p>${escapeHtml(t.consentUnverified)}</p>
<p>${'redirectHost' in unverified ? emphasised(t.consentSentTo, unverified.redirectHost) : escapeHtml(d.unverifiedDevice)}</p>
</div>
`
    : '';
  const code = input.userCode === undefined ? '' : `<p id="device-code">${emphasised(d.codeOnDevice, input.userCode)}</p>
`;
  // Focus starts on Allow only where there is nothing more to read: with a warning or a code to compare
  // (RFC 8628 §5.4, remote phishing), pressing Enter on arrival must not approve.
  const focus = warning === '' && code === '' ? ' autofocus' : '';
  const items = inDisplayOrder(input.scopes)
    .map((scope) => `<li>${escapeHtml(isKnownScope(scope) ? SCOPE_DESCRIPTIONS[scope][input.language] : scope)} <span class="muted">(${escapeHtml(scope)})</span></li>`)
    .join('\n');
  const body = `<h1>${escapeHtml(t.consentTitle)}</h1>
<p class="muted">${escapeHtml(t.signedInAs(input.userLabel))}</p>
<p id="intro">${sentenceWithName(t.consentIntro, input.clientName)}</p>
<ul class="scopes" aria-labelledby="intro">
${items}
</ul>
${code}${warning}<form method="post" action="consent">
${hiddenInputs(input.form)}
<div class="actions">
<button type="submit" name="decision" value="approve"${focus}>${escapeHtml(t.approve)}</button>
<button type="submit" name="decision" value="deny" class="secondary">${escapeHtml(t.deny)}</button>
</div>
</form>
<p class="muted">${escapeHtml(t.consentNote)}</p>`;
  return { status: 200, language: input.language, title: t.consentTitle, body, formTargets: input.redirectOrigin === undefined ? [] : [input.redirectOrigin] };
}

/** An authorization request that cannot be redirected (RFC 6749 §4.1.2.1): status 400, no link back. */
export function requestErrorPage(language: Language, problem: RequestProblem): Page {
  const t = PAGE_MESSAGES[language];
  return errorPage(language, 400, t.requestProblem[problem], t.requestAdvice);
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
  const back = emphasised(t.held.link, url.host);
  const way = !followable
    ? `<p>${back}</p>`
    : input.formPost
      ? `<form method="post" action="${escapeHtml(input.formPost.redirectUri)}">
${responseFields(input.formPost.fields)}
<div class="actions"><button type="submit" class="secondary">${back}</button></div>
</form>`
      : `<p><a href="${escapeHtml(input.location)}" rel="noreferrer">${back}</a></p>`;
  return {
    status: 400,
    language: input.language,
    title: t.errorTitle,
    body: `<h1>${escapeHtml(t.errorTitle)}</h1>
<p class="alert" role="alert">${escapeHtml(t.held.error[input.error])} <code>${escapeHtml(input.error)}</code></p>
<p class="warning">${sentenceWithName(t.held.explanation, input.clientName)}</p>
<p>${escapeHtml(t.held.advice)}</p>
${way}`,
    formTargets: input.formPost && followable ? [url.origin] : undefined,
  };
}

/** The authorization response as hidden inputs, in order; unset values are left out. */
function responseFields(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
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
  const body = `<h1>${escapeHtml(t.formPost.title)}</h1>
<p>${emphasised(t.formPost.sending, url.host)}</p>
<p class="muted">${escapeHtml(t.formPost.advice)}</p>
<form method="post" action="${escapeHtml(input.redirectUri)}">
${responseFields(input.fields)}
<div class="actions"><button type="submit">${escapeHtml(t.formPost.button)}</button></div>
</form>`;
  return { status: 200, language: input.language, title: t.formPost.title, body, formTargets: [url.origin], script: FORM_POST_SCRIPT };
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

/**
 * The flow a refused page belongs to, when it has a page of its own to go back to: the device flow's
 * error pages send the user back to `/device` (RFC 8628 §3.3), with advice about the code, not the application.
 */
export type PageFlow = 'device';

function errorPage(language: Language, status: number, problem: string, advice: string, flow?: PageFlow): Page {
  const t = PAGE_MESSAGES[language];
  const d = DEVICE_MESSAGES[language];
  const next = flow === 'device' ? `<p>${escapeHtml(d.retryAdvice)}</p>
<p><a href="/device">${escapeHtml(d.enterCode)}</a></p>` : `<p>${escapeHtml(advice)}</p>`;
  return {
    status,
    language,
    title: t.errorTitle,
    body: `<h1>${escapeHtml(t.errorTitle)}</h1>
<p class="alert" role="alert">${escapeHtml(problem)}</p>
${next}`,
  };
}

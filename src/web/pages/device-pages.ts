import { Language } from '../../common/i18n/language';
import { DEVICE_MESSAGES } from './device-messages';
import { escapeHtml, Page, sentenceWithName } from '../page';

/**
 * RFC 8628 §3.3: the verification page, a form with the field `user_code`. Pre-filled from
 * `verification_uri_complete`, the user still presses the button (nothing is decided by a GET). A wrong
 * code or too many of them show the form again with the reason, so the user can try again.
 */
export function deviceCodePage(input: {
  language: Language;
  csrfToken: string;
  userCode?: string;
  problem?: 'wrong_code' | 'throttled';
  headers?: Record<string, string>;
}): Page {
  const t = DEVICE_MESSAGES[input.language];
  const alert = input.problem === undefined ? '' : `<p class="alert" id="problem" role="alert">${escapeHtml(input.problem === 'throttled' ? t.throttled : t.wrongCode)}</p>\n`;
  const described = input.problem === undefined ? 'code-hint' : 'problem code-hint';
  const invalid = input.problem === 'wrong_code' ? ' aria-invalid="true"' : '';
  const body = `<h1>${escapeHtml(t.title)}</h1>
<p>${escapeHtml(t.intro)}</p>
${alert}<form method="post" action="/device">
<input type="hidden" name="csrf_token" value="${escapeHtml(input.csrfToken)}">
<label for="user_code">${escapeHtml(t.codeLabel)}</label>
<p class="muted" id="code-hint">${escapeHtml(t.codeHint)}</p>
<input id="user_code" name="user_code" type="text" class="code" required autofocus autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="64" value="${escapeHtml(input.userCode ?? '')}" aria-describedby="${described}"${invalid}>
<div class="actions"><button type="submit">${escapeHtml(t.submit)}</button></div>
</form>`;
  const status = input.problem === 'throttled' ? 429 : input.problem === 'wrong_code' ? 400 : 200;
  return { status, language: input.language, title: t.title, body, formTargets: [], headers: input.headers };
}

/**
 * After the decision: back to the device, which learns the outcome by polling (RFC 8628 §3.5); on this
 * side, a link to the account (its connected apps after approving, where the access can be revoked).
 */
export function deviceDonePage(input: { language: Language; clientName: string; approved: boolean }): Page {
  const t = DEVICE_MESSAGES[input.language];
  const outcome = sentenceWithName(input.approved ? t.approved : t.denied, input.clientName);
  return {
    status: 200,
    language: input.language,
    title: t.doneTitle,
    body: `<h1>${escapeHtml(t.doneTitle)}</h1>
<p class="${input.approved ? 'notice' : 'alert'}" role="status">${outcome}</p>
<p>${escapeHtml(input.approved ? t.backToDevice : t.backToDeviceDenied)}</p>
<p>${input.approved ? `<a href="/account/apps">${escapeHtml(t.connectedApps)}</a>` : `<a href="/account">${escapeHtml(t.toAccount)}</a>`}</p>`,
  };
}

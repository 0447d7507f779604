import { Language } from '../../common/i18n/language';
import { DEVICE_MESSAGES } from './device-messages';
import { Page } from '../page';
import { sentenceWithName } from '../text';

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
  const data = {
    t,
    csrfToken: input.csrfToken,
    userCode: input.userCode ?? '',
    alert: input.problem === undefined ? undefined : input.problem === 'throttled' ? t.throttled : t.wrongCode,
    wrongCode: input.problem === 'wrong_code',
  };
  const status = input.problem === 'throttled' ? 429 : input.problem === 'wrong_code' ? 400 : 200;
  return { status, language: input.language, title: t.title, view: 'device/code', data, formTargets: [], headers: input.headers };
}

/**
 * After the decision: back to the device, which learns the outcome by polling (RFC 8628 §3.5); on this
 * side, a link to the account (its connected apps after approving, where the access can be revoked).
 */
export function deviceDonePage(input: { language: Language; clientName: string; approved: boolean }): Page {
  const t = DEVICE_MESSAGES[input.language];
  const outcome = sentenceWithName(input.approved ? t.approved : t.denied, input.clientName);
  return { status: 200, language: input.language, title: t.doneTitle, view: 'device/done', data: { t, approved: input.approved, outcome } };
}

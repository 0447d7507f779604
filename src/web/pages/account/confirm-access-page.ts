import { embeddedJson, Page, PASSKEY_SCRIPTS } from '../../page';
import { AccountPageContext, accountPage } from './account-layout';
import type { ConfirmAccessProblem } from '../../../account/security/account-security.outcomes';
import { CONFIRM_ACCESS_MESSAGES } from './confirm-access-messages';

export const CONFIRM_ACCESS_PATH = '/account/confirm-access';

/** The link to the confirm-access page that returns to `returnTo` (a safe local path). */
export function confirmAccessLink(returnTo: string): string {
  return `${CONFIRM_ACCESS_PATH}?return_to=${encodeURIComponent(returnTo)}`;
}

/**
 * `GET /account/confirm-access` (SECURITY.md, "A borrowed session adding a way in"), and the answer to an
 * action refused for want of a recent proof: the password (field `current_password`), a passkey that
 * verifies its user (the button needs JavaScript), or a current code when the account has the
 * authenticator app; then back to `returnTo`.
 */
export function confirmAccessPage(
  ctx: AccountPageContext,
  input: { returnTo: string; code: boolean; passkeyOptions: string; asked?: boolean; problem?: ConfirmAccessProblem; retryAfterSeconds?: number; status?: number },
): Page {
  const t = CONFIRM_ACCESS_MESSAGES[ctx.language];
  const section = input.returnTo === '/account/data' || input.returnTo.startsWith('/account/data?') ? 'data' : 'security';
  const status = input.status ?? (input.problem === undefined ? 200 : input.problem === 'throttled' ? 429 : 400);
  const page = accountPage(ctx, {
    section,
    title: t.title,
    view: 'account/confirm-access',
    status,
    data: {
      t,
      fields: [['return_to', input.returnTo]],
      asked: input.asked === true,
      code: input.code,
      problem: input.problem === undefined ? undefined : t.problems[input.problem],
      codeProblem: input.problem === 'invalid_code',
      passkey: embeddedJson(input.passkeyOptions),
    },
  });
  const headers = input.retryAfterSeconds === undefined ? undefined : { 'retry-after': String(input.retryAfterSeconds) };
  return { ...page, scripts: PASSKEY_SCRIPTS, headers };
}

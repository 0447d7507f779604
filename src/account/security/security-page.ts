import { AuthenticatorState } from '../../second-factor/second-factor.service';
import { Page } from '../../web/page';
import { AccountPageContext, accountPage } from '../pages/account-layout';
import { SECURITY_MESSAGES, SecurityNotice } from './security-messages';

export const SECURITY_PATH = '/account/security';

/** A refused form of the authenticator section: which one, and why. */
export interface AuthenticatorProblem {
  form: 'confirm' | 'turn_off';
  message: string;
}

/**
 * `GET /account/security` (README.md, Your account): how the account signs in. Each feature is a
 * section of its own (a partial under views/account/security/); the authenticator app's is
 * docs/second-factor.md.
 */
export function securityPage(
  ctx: AccountPageContext,
  input: { authenticator: AuthenticatorState; recoveryCodes?: string[]; done?: SecurityNotice; problem?: AuthenticatorProblem; status?: number },
): Page {
  const t = SECURITY_MESSAGES[ctx.language];
  return accountPage(ctx, {
    section: 'security',
    title: t.title,
    view: 'account/security',
    status: input.status,
    data: {
      t,
      notice: input.done === undefined ? undefined : t.notices[input.done],
      authenticator: {
        ...input.authenticator,
        recoveryLeft: input.authenticator.state === 'on' ? t.recoveryLeft(input.authenticator.recoveryCodesLeft) : undefined,
        recoveryCodes: input.recoveryCodes,
        problem: input.problem,
      },
    },
  });
}

import { Page } from '../../web/page';
import { AccountPageContext, accountPage } from '../pages/account-layout';
import { SELF_SERVICE_MESSAGES } from '../pages/self-service-messages';
import { SecurityProblem } from './account-security.service';

/**
 * `GET /account/security` (README.md, Your account): each section is a partial of its own under
 * views/account/security/, so that other sections (a passkey, an authenticator) join the page beside them.
 */
export function securityPage(
  ctx: AccountPageContext,
  input: {
    email: string;
    mailOff: boolean;
    notice?: string;
    password?: { problem?: SecurityProblem };
    changeEmail?: { problem?: SecurityProblem; sent?: string; newEmail?: string };
  },
): Page {
  const t = SELF_SERVICE_MESSAGES[ctx.language];
  const words = (problem: SecurityProblem | undefined): string | undefined => {
    if (problem === undefined) return undefined;
    switch (problem.kind) {
      case 'wrong_password':
        return t.wrongPassword;
      case 'throttled':
        return t.throttled;
      case 'weak':
        return `${t.resetProblemLead} ${t.passwordProblem[problem.problem]}`;
      case 'invalid_email':
        return t.emailInvalid;
      case 'same_email':
        return t.sameEmail;
    }
  };
  const problem = input.password?.problem ?? input.changeEmail?.problem;
  const page = accountPage(ctx, {
    section: 'security',
    title: t.securityTitle,
    view: 'account/security',
    data: {
      notice: input.notice,
      password: { t, csrfToken: ctx.csrfToken, email: input.email, problem: words(input.password?.problem) },
      email: {
        t,
        csrfToken: ctx.csrfToken,
        email: input.email,
        newEmail: input.changeEmail?.newEmail ?? '',
        sent: input.changeEmail?.sent,
        problem: words(input.changeEmail?.problem),
        off: input.mailOff ? t.unavailable.mail_off : undefined,
      },
    },
    status: problem === undefined ? 200 : problem.kind === 'throttled' ? 429 : 400,
  });
  return problem?.kind === 'throttled' ? { ...page, headers: { 'retry-after': String(problem.retryAfterSeconds) } } : page;
}

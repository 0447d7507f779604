import { Language } from '../../../common/i18n/language';
import type { SecurityProblem } from '../../../account/security/account-security.outcomes';
import { SELF_SERVICE_MESSAGES } from './self-service-messages';

/** What `/account/security` shows of the account's password and address (README.md, Your account). */
export interface AccountSectionsInput {
  email: string;
  /** No mail can be sent (production without `SMTP_URL`): the address cannot change. */
  mailOff: boolean;
  notice?: string;
  password?: { problem?: SecurityProblem };
  changeEmail?: { problem?: SecurityProblem; newEmail?: string };
}

/**
 * The data of the change-password and change-email sections (each a partial under
 * views/account/security/), with the refusal either one answers, if any.
 */
export function accountSections(language: Language, csrfToken: string, input: AccountSectionsInput) {
  const t = SELF_SERVICE_MESSAGES[language];
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
        return t.emailProblem[problem.problem];
      case 'same_email':
        return t.sameEmail;
    }
  };
  return {
    notice: input.notice,
    problem: input.password?.problem ?? input.changeEmail?.problem,
    password: { t, csrfToken, email: input.email, problem: words(input.password?.problem) },
    email: {
      t,
      csrfToken,
      email: input.email,
      newEmail: input.changeEmail?.newEmail ?? '',
      problem: words(input.changeEmail?.problem),
      off: input.mailOff ? t.unavailable.mail_off : undefined,
    },
  };
}

import type { EmailProblem } from '../../common/text/email-address';
import type { PasswordProblem } from '../../users/password.outcomes';

/** Why a field of the sign-up form was refused. */
export type SignUpProblem = { field: 'name'; problem: 'missing' | 'too_long' | 'invalid' } | { field: 'email'; problem: EmailProblem } | { field: 'password'; problem: PasswordProblem };

/** Why a page that sends mail is not there. */
export type Unavailable = 'sign_up_closed' | 'mail_off';

import type { EmailProblem } from '../../common/text/email-address';
import type { PasswordProblem } from '../../users/password.outcomes';

/** Why a change on `/account/security` (password, address) was refused. */
export type SecurityProblem = { kind: 'wrong_password' } | { kind: 'throttled'; retryAfterSeconds: number } | { kind: 'weak'; problem: PasswordProblem } | { kind: 'invalid_email'; problem: EmailProblem } | { kind: 'same_email' };

/** Why a proof on the confirm-access page was not taken (SECURITY.md, "A borrowed session adding a way in"). */
export type ConfirmAccessProblem = 'wrong_password' | 'invalid_code' | 'passkey_refused' | 'throttled';

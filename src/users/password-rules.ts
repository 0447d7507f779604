import { dictionary } from '@zxcvbn-ts/language-common';
import type { PasswordProblem } from './password.outcomes';
import { normalizeEmail } from './users.service';

export type { PasswordProblem };

/** OWASP ASVS 5.0 V6.2.1: at least 8 characters. */
export const PASSWORD_MIN_LENGTH = 8;
/** ASVS 5.0 V6.2.9: at least 64 must be allowed; longer ones are refused only to bound the hash's input. */
export const PASSWORD_MAX_LENGTH = 128;
/** ASVS 5.0 V6.2.4 (NIST SP 800-63B §3.1.1.2): the most common passwords, from a maintained ranked list. */
const COMMON_COUNT = 10_000;
const COMMON = new Set((dictionary['passwords-common'] as string[]).slice(0, COMMON_COUNT));

/**
 * The rules of a new password (README.md, Your account; ASVS 5.0 V6.2, NIST SP 800-63B): 8 to 128
 * characters (counted as Unicode code points), any characters, no composition rules; refused when it
 * is one of the 10,000 most common passwords (compared in lower case, as the list is), or the account's
 * email address or name. Null when it is acceptable.
 */
export function passwordProblem(password: string, account: { email: string; name: string }): PasswordProblem | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return 'too_short';
  if (length > PASSWORD_MAX_LENGTH) return 'too_long';
  const lowered = password.toLowerCase();
  if (COMMON.has(lowered)) return 'common';
  if (lowered === normalizeEmail(account.email)) return 'same_as_email';
  if (account.name.trim() !== '' && lowered.trim() === account.name.trim().toLowerCase()) return 'same_as_name';
  return null;
}

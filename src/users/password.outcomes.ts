/** Why a new password was refused (README.md, Your account: OWASP ASVS 5.0 V6.2). */
export type PasswordProblem = 'too_short' | 'too_long' | 'common' | 'same_as_email' | 'same_as_name';

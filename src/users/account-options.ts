import { CliError } from '../cli/cli-command';
import { hasControlCharacters } from '../common/validation/no-control-characters.decorator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem, PasswordProblem } from './password-rules';

const PASSWORD_PROBLEM_TEXT: Record<PasswordProblem, string> = {
  too_short: `at least ${PASSWORD_MIN_LENGTH} characters`,
  too_long: `at most ${PASSWORD_MAX_LENGTH} characters`,
  common: 'one of the most common passwords, easy to guess',
  same_as_email: 'the same as the email address',
  same_as_name: 'the same as the name',
};

/**
 * `--password` under the rules every form applies (README.md, Your account: src/users/password-rules.ts),
 * or the one-line reason it is refused. The value itself is never echoed.
 */
export function passwordOption(password: string, account: { email: string; name: string }): string {
  const problem = passwordProblem(password, account);
  if (problem) throw new CliError(`Invalid --password: ${PASSWORD_PROBLEM_TEXT[problem]}`);
  return password;
}

/** `--name` as the forms take one: at most 200 characters, no control characters (they would reach a terminal as commands). */
export function nameOption(name: string): string {
  if (name.length > 200) throw new CliError('Invalid --name: at most 200 characters');
  if (hasControlCharacters(name)) throw new CliError('Invalid --name: control characters are not allowed');
  return name;
}

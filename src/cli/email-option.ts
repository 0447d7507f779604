import { CliError } from './cli-command';
import { canonicalEmail, EMAIL_PROBLEM_TEXT } from '../common/text/email-address';

/** The canonical form of `--email` (src/common/text/email-address.ts), or the one-line reason it is refused. */
export function emailOption(typed: string): string {
  const canonical = canonicalEmail(typed);
  // The value itself is not echoed: it may hold the very control or invisible characters refused.
  if (!canonical.ok) throw new CliError(`Invalid --email: ${EMAIL_PROBLEM_TEXT[canonical.problem]}; nothing changed`);
  return canonical.email;
}

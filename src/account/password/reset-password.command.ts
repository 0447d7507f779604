import { Command, Option } from 'nest-commander';
import { randomBytes } from 'node:crypto';
import { CliCommand, CliError } from '../../cli/cli-command';
import { emailOption } from '../../cli/email-option';
import { WaysInService } from './ways-in.service';

/**
 * A new password for an existing user (README.md, Commands), e.g. to get back into the demo account,
 * whose password is shown only once. Without --password one is generated and printed. Like a reset by
 * mail it ends every way in of the account: sessions, mailed links, tokens of every application.
 */
@Command({ name: 'users:reset-password', description: 'Set a new password for a user (generated and printed unless --password is given)' })
export class ResetPasswordCommand extends CliCommand {
  constructor(private readonly waysIn: WaysInService) {
    super();
  }

  @Option({ flags: '--email <email>', description: 'Email address of the user' })
  parseEmail(value: string): string {
    return value;
  }

  @Option({ flags: '--password <password>', description: 'The new password, at least 8 characters (default: a generated one)' })
  parsePassword(value: string): string {
    return value;
  }

  protected async execute(_params: string[], options: Record<string, unknown>): Promise<void> {
    const email = emailOption(this.required(options, 'email'));
    const given = options.password;
    if (given !== undefined && (typeof given !== 'string' || given.length < 8)) throw new CliError('Invalid --password: at least 8 characters');
    const password = typeof given === 'string' ? given : randomBytes(9).toString('base64url');
    const user = await this.waysIn.setPasswordByOperator(email, password);
    if (!user) throw new CliError(`No user with the email ${email}; nothing changed`);
    this.output(
      { id: user.id, email: user.email, ...(given === undefined ? { password } : {}) },
      given === undefined ? `New password for ${user.email}: ${password}` : `Password changed for ${user.email}`,
    );
  }
}

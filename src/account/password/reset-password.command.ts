import { Command, Option } from 'nest-commander';
import { randomBytes } from 'node:crypto';
import { CliCommand, CliError } from '../../cli/cli-command';
import { emailOption } from '../../cli/email-option';
import { passwordOption } from '../../users/account-options';
import { UsersService } from '../../users/users.service';
import { WaysInService } from './ways-in.service';

/**
 * A new password for an existing user (README.md, Commands), e.g. to get back into the demo account,
 * whose password is shown only once. Without --password one is generated and printed. Like a reset by
 * mail it ends every way in of the account: sessions, mailed links, tokens of every application.
 */
@Command({ name: 'users:reset-password', description: 'Set a new password for a user (generated and printed unless --password is given)' })
export class ResetPasswordCommand extends CliCommand {
  constructor(
    private readonly waysIn: WaysInService,
    private readonly users: UsersService,
  ) {
    super();
  }

  @Option({ flags: '--email <email>', description: 'Email address of the user' })
  parseEmail(value: string): string {
    return value;
  }

  @Option({ flags: '--password <password>', description: 'The new password: 8 to 128 characters, not a common one, the email address or the name (default: a generated one)' })
  parsePassword(value: string): string {
    return value;
  }

  protected async execute(_params: string[], options: Record<string, unknown>): Promise<void> {
    const email = emailOption(this.required(options, 'email'));
    const given = options.password;
    const account = await this.users.findByEmail(email);
    if (!account) throw new CliError(`No user with the email ${email}; nothing changed`);
    // The rules of every form (src/users/password-rules.ts); a generated password (72 random bits) meets them.
    const password = given === undefined ? randomBytes(9).toString('base64url') : passwordOption(typeof given === 'string' ? given : '', account);
    const user = await this.waysIn.setPasswordByOperator(email, password);
    if (!user) throw new CliError(`No user with the email ${email}; nothing changed`);
    this.output(
      { id: user.id, email: user.email, ...(given === undefined ? { password } : {}) },
      given === undefined ? `New password for ${user.email}: ${password}` : `Password changed for ${user.email}`,
    );
  }
}

import { Command, Option } from 'nest-commander';
import { CliCommand, CliError } from '../cli/cli-command';
import { emailOption } from '../cli/email-option';
import { nameOption, passwordOption } from './account-options';
import { EmailTakenError, UsersService } from './users.service';

@Command({ name: 'users:create', description: 'Create a user who can sign in to authorize applications' })
export class CreateUserCommand extends CliCommand {
  constructor(private readonly users: UsersService) {
    super();
  }

  @Option({ flags: '--email <email>', description: 'Email address (the sign-in name)' })
  parseEmail(value: string): string {
    return value;
  }

  @Option({ flags: '--name <name>', description: 'Display name' })
  parseName(value: string): string {
    return value;
  }

  @Option({ flags: '--password <password>', description: 'Password: 8 to 128 characters, not a common one, the email address or the name' })
  parsePassword(value: string): string {
    return value;
  }

  protected async execute(_params: string[], options: Record<string, unknown>): Promise<void> {
    const email = emailOption(this.required(options, 'email'));
    const name = nameOption(this.required(options, 'name'));
    const password = passwordOption(this.required(options, 'password'), { email, name });
    try {
      const user = await this.users.create({ email, name, password });
      this.output({ id: user.id, email: user.email }, `Created user ${user.id} <${user.email}>`);
    } catch (error) {
      if (error instanceof EmailTakenError) throw new CliError(error.message);
      throw error;
    }
  }
}

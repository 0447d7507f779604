import { Command, Option } from 'nest-commander';
import { CliCommand, CliError } from '../cli/cli-command';
import { MAX_SEEDED_USERS, SeededUsersService, UnknownSeedClientError } from '../oauth/seed/seeded-users.service';
import { DEFAULT_DEMO_STARTUPS, MAX_DEMO_STARTUPS, StartupsSeederService } from './startups-seeder.service';

@Command({
  name: 'seed',
  description: `Add the deterministic demo data: the industries and startups up to N in total (default ${DEFAULT_DEMO_STARTUPS})`,
})
export class SeedCommand extends CliCommand {
  constructor(
    private readonly seeder: StartupsSeederService,
    private readonly users: SeededUsersService,
  ) {
    super();
  }

  @Option({ flags: '--startups <n>', description: `How many startups the database should hold, 0 to ${MAX_DEMO_STARTUPS}` })
  parseStartups(value: string): string {
    return value;
  }

  @Option({
    flags: '--users <n>',
    description: `Also make sure seed users 1..N exist (seed-user-NNNNNN@example.invalid, a password nobody knows), 0 to ${MAX_SEEDED_USERS}`,
  })
  parseUsers(value: string): string {
    return value;
  }

  @Option({
    flags: '--tokens-for <client_id>',
    description: 'With --users: issue each seed user a new access and refresh token for this client (its scopes), printed once',
  })
  parseTokensFor(value: string): string {
    return value;
  }

  protected async execute(_params: string[], options: Record<string, unknown>): Promise<void> {
    const startups = wholeNumber('--startups', options.startups, DEFAULT_DEMO_STARTUPS, MAX_DEMO_STARTUPS);
    const users = options.users === undefined ? undefined : wholeNumber('--users', options.users, 0, MAX_SEEDED_USERS);
    const tokensFor = options.tokensFor === undefined ? undefined : String(options.tokensFor);
    if (tokensFor !== undefined && users === undefined) throw new CliError('--tokens-for needs --users');

    // The client is checked before anything is written, so an unknown one changes nothing.
    const client = tokensFor === undefined ? undefined : await this.users.client(tokensFor).catch(asCliError);
    const started = Date.now();
    const result = await this.seeder.seed({ startups });
    const usersResult = users === undefined ? undefined : await this.users.seed({ users, tokensFor: client });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const human = [
      result.industriesAdded > 0 ? `Added ${result.industriesAdded} missing industries.` : '',
      result.startupsAdded > 0
        ? `Added ${result.startupsAdded} demo startups in ${seconds} s; the database now holds ${result.startupsTotal}.`
        : `The database already holds ${result.startupsTotal} startups (asked for ${startups}); nothing added.`,
      usersResult ? `Seed users: ${usersResult.usersAdded} added, ${usersResult.usersSeeded} in all.` : '',
      ...(usersResult?.grants ?? []).map((g) => `user ${g.user_id}  access ${g.access_token}  refresh ${g.refresh_token}`),
    ]
      .filter(Boolean)
      .join('\n');
    this.output({ ...result, startupsRequested: startups, ...(usersResult ?? {}) }, human);
  }
}

function wholeNumber(flag: string, value: unknown, fallback: number, max: number): number {
  const raw = value === undefined ? String(fallback) : String(value);
  const n = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
  if (!(n <= max)) throw new CliError(`Invalid ${flag}: "${raw}" (a whole number from 0 to ${max})`);
  return n;
}

function asCliError(error: unknown): never {
  throw error instanceof UnknownSeedClientError ? new CliError(error.message) : error;
}

import { Command, Option } from 'nest-commander';
import { CliCommand, CliError } from '../cli/cli-command';
import { DEFAULT_DEMO_STARTUPS, MAX_DEMO_STARTUPS, StartupsSeederService } from './startups-seeder.service';

@Command({
  name: 'seed',
  description: `Add the deterministic demo data: the industries and startups up to N in total (default ${DEFAULT_DEMO_STARTUPS})`,
})
export class SeedCommand extends CliCommand {
  constructor(private readonly seeder: StartupsSeederService) {
    super();
  }

  @Option({ flags: '--startups <n>', description: `How many startups the database should hold, 0 to ${MAX_DEMO_STARTUPS}` })
  parseStartups(value: string): string {
    return value;
  }

  protected async execute(_params: string[], options: Record<string, unknown>): Promise<void> {
    const raw = options.startups === undefined ? String(DEFAULT_DEMO_STARTUPS) : String(options.startups);
    const startups = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
    if (!(startups <= MAX_DEMO_STARTUPS)) throw new CliError(`Invalid --startups: "${raw}" (a whole number from 0 to ${MAX_DEMO_STARTUPS})`);
    const started = Date.now();
    const result = await this.seeder.seed({ startups });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const human =
      result.startupsAdded > 0
        ? `Added ${result.startupsAdded} demo startups in ${seconds} s; the database now holds ${result.startupsTotal}.`
        : `The database already holds ${result.startupsTotal} startups (asked for ${startups}); nothing added.`;
    this.output(
      { ...result, startupsRequested: startups },
      result.industriesAdded > 0 ? `Added ${result.industriesAdded} missing industries. ${human}` : human,
    );
  }
}

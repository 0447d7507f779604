import 'reflect-metadata';
import 'dotenv/config';
import { CommandFactory } from 'nest-commander';
import { ConfigError } from './config/env-parsers';
import { configuration } from './config/configuration';

/** `node dist/cli.js <command> [--json]`: manage users, clients, API keys, demo data and tokens. */
async function main(): Promise<void> {
  try {
    configuration();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { CliModule } = await import('./cli.module');
  await CommandFactory.run(CliModule, {
    logger: false,
    errorHandler: (error: Error & { exitCode?: number; code?: string }) => {
      // Unknown command or option, missing argument: commander has already explained it on stderr.
      if (error.exitCode !== 0 && !['commander.helpDisplayed', 'commander.version'].includes(error.code ?? '')) process.exitCode = 1;
      process.exit(process.exitCode ?? 0);
    },
    serviceErrorHandler: (error) => {
      process.stderr.write(`${error.message.split('\n')[0]}\n`);
      process.exit(1);
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
  process.exit(1);
});

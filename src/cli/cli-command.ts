import { CommandRunner, Option } from 'nest-commander';

/** A failure the operator can act on: printed as one line on stderr, exit code 1, nothing changed. */
export class CliError extends Error {}

/**
 * Base of every CLI command. `--json` makes the command print exactly one JSON object on stdout
 * (README.md, Commands); otherwise it prints a short human summary. Errors become one line on stderr and a
 * non-zero exit code.
 */
export abstract class CliCommand extends CommandRunner {
  private json = false;

  @Option({ flags: '--json', description: 'Print exactly one JSON object on stdout' })
  parseJson(): boolean {
    return true;
  }

  async run(params: string[], options: Record<string, unknown> = {}): Promise<void> {
    this.json = options.json === true;
    try {
      await this.execute(params, options);
    } catch (error) {
      const message = error instanceof CliError ? error.message : `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
      process.stderr.write(`${message.split('\n')[0]}\n`);
      process.exitCode = 1;
    }
  }

  protected abstract execute(params: string[], options: Record<string, unknown>): Promise<void>;

  /** Prints the result: the object as JSON with `--json`, the human text otherwise. */
  protected output(result: object, human: string): void {
    process.stdout.write(this.json ? `${JSON.stringify(result)}\n` : `${human}\n`);
  }

  protected required(options: Record<string, unknown>, name: string): string {
    const value = options[name];
    if (typeof value !== 'string' || value.trim() === '') throw new CliError(`Missing required option --${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    return value;
  }
}

import { Command, Option } from 'nest-commander';
import { CliCommand, CliError } from '../../cli/cli-command';
import { SIGNING_ALGS, SigningAlg } from './signing-key.entity';
import { SigningKeysService, SigningKeyUnreadableError } from './signing-keys.service';

@Command({ name: 'keys:list', description: 'List the ID-token signing keys (never their private part)' })
export class ListKeysCommand extends CliCommand {
  constructor(private readonly keys: SigningKeysService) {
    super();
  }

  protected async execute(): Promise<void> {
    const keys = await this.keys.list();
    const lines = keys.map((k) => `${k.kid}\t${k.alg}\t${k.state}\tcreated ${k.createdAt}`);
    this.output({ keys }, lines.length ? lines.join('\n') : 'No signing keys yet: the service makes them on its first start.');
  }
}

@Command({
  name: 'keys:rotate',
  description: 'Make a new active signing key (each algorithm, or --alg); the previous one stays in the JWKS until the ID tokens it signed have expired',
})
export class RotateKeysCommand extends CliCommand {
  constructor(private readonly keys: SigningKeysService) {
    super();
  }

  @Option({ flags: '--alg <alg>', description: `Rotate only this algorithm's key: ${SIGNING_ALGS.join(' or ')} (default: both)` })
  parseAlg(value: string): string {
    return value;
  }

  protected async execute(_params: string[], options: Record<string, unknown>): Promise<void> {
    const alg = options.alg as string | undefined;
    if (alg !== undefined && !(SIGNING_ALGS as readonly string[]).includes(alg)) throw new CliError(`Invalid --alg: "${alg}" (use ${SIGNING_ALGS.join(' or ')})`);
    if (this.keys.secretGenerated) {
      throw new CliError('keys:rotate needs KEY_ENCRYPTION_SECRET, the one the service runs with: a key encrypted under a secret made up for this command could not be read by the service');
    }
    let rotated;
    try {
      ({ rotated } = await this.keys.rotate(alg ? [alg as SigningAlg] : SIGNING_ALGS));
    } catch (error) {
      if (error instanceof SigningKeyUnreadableError) throw new CliError(`${error.message}; nothing changed`);
      throw error;
    }
    this.output(
      { rotated },
      rotated.map((k) => `New active ${k.alg} key ${k.kid}; the previous one stays published until the ID tokens it signed have expired`).join('\n'),
    );
  }
}

export const KEY_COMMANDS = [ListKeysCommand, RotateKeysCommand];

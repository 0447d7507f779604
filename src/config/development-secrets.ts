import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from './env-parsers';

/** The secrets a development server keeps between starts (docs/configuration-and-deployment.md, Development secrets). */
export interface KeptSecrets {
  SESSION_SECRET: string;
  KEY_ENCRYPTION_SECRET: string;
}

const NAMES = ['SESSION_SECRET', 'KEY_ENCRYPTION_SECRET'] as const;

/**
 * The development secrets kept in `file`, made on the first start. Several processes may start at once
 * (two terminals, the service and the CLI): each writes its candidate to a file of its own (mode 0600)
 * and hard-links it to `file`, which fails if `file` already exists; so exactly one candidate becomes
 * the file, whole, and every process then reads that one.
 */
export function keptSecrets(file: string): KeptSecrets {
  const existing = read(file);
  if (existing !== undefined) return existing;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const candidate = join(dirname(file), `.secrets-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
    const secrets: KeptSecrets = { SESSION_SECRET: randomBytes(32).toString('base64url'), KEY_ENCRYPTION_SECRET: randomBytes(32).toString('base64url') };
    const fd = openSync(candidate, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(secrets, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(candidate, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(candidate);
    }
  } catch (error) {
    throw new ConfigError(`DEV_SECRETS_FILE: cannot keep the development secrets in ${file} (${(error as Error).message}); set SESSION_SECRET and KEY_ENCRYPTION_SECRET, or DEV_SECRETS_FILE=off`);
  }
  const made = read(file);
  if (made === undefined) throw new ConfigError(`DEV_SECRETS_FILE: ${file} vanished as it was made`);
  return made;
}

function read(file: string): KeptSecrets | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`DEV_SECRETS_FILE: cannot read ${file} (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const valid = typeof parsed === 'object' && parsed !== null && NAMES.every((name) => typeof (parsed as Record<string, unknown>)[name] === 'string' && ((parsed as Record<string, string>)[name]).length >= 32);
  if (!valid) throw new ConfigError(`DEV_SECRETS_FILE: ${file} is not a JSON object with SESSION_SECRET and KEY_ENCRYPTION_SECRET of at least 32 characters each; delete it to make a new one`);
  const secrets = parsed as KeptSecrets;
  return { SESSION_SECRET: secrets.SESSION_SECRET, KEY_ENCRYPTION_SECRET: secrets.KEY_ENCRYPTION_SECRET };
}

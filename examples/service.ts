/**
 * What the three examples share: where the service is, what to say when it cannot be reached, and
 * removing the client a `--register` run made when a later step fails.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { config as loadDotenv } from 'dotenv';

// The service's own settings (PUBLIC_URL, PORT) in `.env`, as `npm start` reads them.
loadDotenv({ path: join(__dirname, '..', '.env'), quiet: true } as Parameters<typeof loadDotenv>[0]);

/** This run: the address it tried, and the client it registered (removed again if the run fails). */
export const run: { baseUrl: string; registered?: string } = { baseUrl: '' };

/**
 * The service's address: `--base-url` (or SP_BASE_URL) when given, else the service's own PUBLIC_URL,
 * else http://localhost on its PORT (3000 by default), so an example follows the service it runs beside.
 */
export function serviceAddress(flag: string | undefined): string {
  const env = process.env;
  const blank = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());
  run.baseUrl = (blank(flag) ?? blank(env.SP_BASE_URL) ?? blank(env.PUBLIC_URL) ?? `http://localhost:${blank(env.PORT) ?? 3000}`).replace(/\/+$/, '');
  return run.baseUrl;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** The reason the service could not be reached at all, if that is why `error` happened. */
function unreachable(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 6; cause = cause.cause, depth++) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code !== undefined && UNREACHABLE.has(code)) return code;
    if (cause.message === 'fetch failed' && !(cause.cause instanceof Error)) return cause.message;
  }
  return undefined;
}

/** `clients:delete` of the project's CLI, on the database the local service uses. */
function deleteClient(clientId: string): void {
  execFileSync('npm', ['run', '--silent', 'cli', '--', 'clients:delete', clientId, '--json'], { cwd: join(__dirname, '..'), stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Ends a failed run: says why (naming the address when the service could not be reached), removes what it registered, exits 1. */
export function fail(error: unknown, describe: (error: unknown) => string = (e) => `Error: ${e instanceof Error ? e.message : String(e)}`): never {
  const code = unreachable(error);
  if (code !== undefined) {
    console.error(`Error: could not reach the service at ${run.baseUrl} (${code}). Start it with \`npm start\`, or say where it is: --base-url, PUBLIC_URL or PORT.`);
  } else {
    console.error(describe(error));
  }
  if (run.registered !== undefined) {
    try {
      deleteClient(run.registered);
      console.error(`Removed the client ${run.registered} this run registered.`);
    } catch {
      console.error(`Could not remove the client ${run.registered} this run registered: npm run cli -- clients:delete ${run.registered}`);
    }
  }
  process.exit(1);
}

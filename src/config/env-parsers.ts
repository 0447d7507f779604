/**
 * Small, strict parsers for environment variables. Each one either returns a typed value or throws a
 * ConfigError whose message is a single line naming the variable, so a bad deployment fails at start
 * with something an operator can act on.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;

function raw(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function str(env: Env, name: string, fallback: string): string {
  return raw(env, name) ?? fallback;
}

export function optionalStr(env: Env, name: string): string | undefined {
  return raw(env, name);
}

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) {
    throw new ConfigError(`${name} must be a whole number between ${min} and ${max}, got "${value}"`);
  }
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new ConfigError(`${name} must be a whole number between ${min} and ${max}, got "${value}"`);
  }
  return parsed;
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  const lowered = value.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lowered)) return true;
  if (['0', 'false', 'no', 'off'].includes(lowered)) return false;
  throw new ConfigError(`${name} must be true or false, got "${value}"`);
}

export function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  }
  return value as T;
}

export function url(env: Env, name: string, fallback: string | undefined, protocols: readonly string[]): string | undefined {
  const value = raw(env, name) ?? fallback;
  if (value === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, got "${redactUrl(value)}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${redactUrl(value)}"`);
  }
  return value;
}

/** Never echo a password that an operator put into a connection URL. */
function redactUrl(value: string): string {
  return value.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/**
 * `*`, or a comma-separated list of web origins, each written as a browser sends it in `Origin`: a scheme
 * (`http` or `https`), a lower-case host and a port only when it is not the scheme's default.
 */
export function origins(env: Env, name: string): '*' | string[] {
  const value = raw(env, name);
  if (value === undefined) return [];
  if (value === '*') return '*';
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      let url: URL | undefined;
      try {
        url = new URL(entry);
      } catch {
        url = undefined;
      }
      // A DNS name or an IP literal: no wildcard, which an origin never holds and a browser never sends.
      const host = url !== undefined && /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/.test(url.hostname);
      if (url?.origin !== entry || !host || !/^https?:\/\//.test(entry)) {
        throw new ConfigError(`${name} must be * or a comma-separated list of origins as a browser sends them (such as https://agent.example or http://localhost:6274), got "${entry}"`);
      }
      return entry;
    });
}

import { hasControlCharacters, replaceControlCharacters } from '../common/validation/no-control-characters.decorator';
import { isKnownScope, KNOWN_SCOPES, parseScope } from '../auth/scopes';

/** Which rule a registration broke, so that a page can say it in the reader's language. */
export type ClientRule =
  | 'name_length'
  | 'name_characters'
  | 'redirect_uri_missing'
  | 'redirect_uri_too_long'
  | 'redirect_uri_not_absolute'
  | 'redirect_uri_fragment'
  | 'redirect_uri_credentials'
  | 'redirect_uri_characters'
  | 'redirect_uri_http'
  | 'redirect_uri_scheme'
  | 'scope_missing'
  | 'scope_unknown'
  | 'client_id_taken'
  | 'public_client';

/** A client registration that breaks one of the rules below; the message names the offending value. */
export class ClientValidationError extends Error {
  constructor(
    message: string,
    readonly rule?: ClientRule,
  ) {
    super(message);
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const MAX_REDIRECT_URI_LENGTH = 2000;

/**
 * The rules a registered redirect URI must follow. It is later compared by exact string equality
 * (RFC 9700 §4.1.3), so it is stored exactly as given.
 * - absolute `https:` URL (RFC 9700 §4.1.1: the code must not travel in clear text);
 * - `http:` only on a loopback host (RFC 8252 §7.3), or on this server's own origin when PUBLIC_URL is
 *   itself plain http (a development machine: the API reference's own redirect page lives there);
 * - no fragment (RFC 6749 §3.1.2), no user name or password in the URL, no spaces or control characters.
 */
export function assertValidRedirectUri(uri: string, publicUrl: string): void {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) throw new ClientValidationError(`Invalid redirect URI: longer than ${MAX_REDIRECT_URI_LENGTH} characters`, 'redirect_uri_too_long');
  if (/\s/.test(uri) || hasControlCharacters(uri)) {
    throw new ClientValidationError(`Invalid redirect URI "${replaceControlCharacters(uri)}": must not contain spaces or control characters`, 'redirect_uri_characters');
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new ClientValidationError(`Invalid redirect URI "${uri}": not an absolute URL`, 'redirect_uri_not_absolute');
  }
  if (uri.includes('#')) throw new ClientValidationError(`Invalid redirect URI "${uri}": must not contain a fragment`, 'redirect_uri_fragment');
  if (url.username || url.password) throw new ClientValidationError(`Invalid redirect URI "${uri}": must not contain credentials`, 'redirect_uri_credentials');
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:') {
    if (LOOPBACK_HOSTS.has(url.hostname)) return;
    if (publicUrl.startsWith('http://') && url.origin === new URL(publicUrl).origin) return;
    throw new ClientValidationError(`Invalid redirect URI "${uri}": http is allowed only for localhost, 127.0.0.1 and [::1]; use https`, 'redirect_uri_http');
  }
  throw new ClientValidationError(`Invalid redirect URI "${uri}": the scheme must be https (or http for localhost)`, 'redirect_uri_scheme');
}

/** The scopes a client may request: a non-empty subset of the known scopes, sorted and without repeats. */
export function parseClientScopes(value: string): string[] {
  const scopes = parseScope(value.replace(/[\s,]+/g, ' '));
  if (scopes.length === 0) throw new ClientValidationError(`Invalid scopes: give at least one of ${KNOWN_SCOPES.join(', ')}`, 'scope_missing');
  const unknown = scopes.filter((s) => !isKnownScope(s));
  if (unknown.length > 0) throw new ClientValidationError(`Invalid scopes: unknown scope "${unknown[0]}" (known: ${KNOWN_SCOPES.join(', ')})`, 'scope_unknown');
  return scopes;
}

export function assertValidClientName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 200) throw new ClientValidationError('Invalid name: 1 to 200 characters', 'name_length');
  if (hasControlCharacters(trimmed)) throw new ClientValidationError('Invalid name: no control characters', 'name_characters');
  return trimmed;
}

import { isKnownScope, KNOWN_SCOPES, parseScope } from '../../common/scopes';
import { isRedirectHost } from '../../common/http/redirect-hosts';
import { assertValidClientName, assertValidRedirectUri, ClientValidationError } from '../client-rules';

/** A `client_id` this server reads as the URL of a Client ID Metadata Document (never a generated `sp_client_…` id). */
export function looksLikeClientIdUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/** A Client ID Metadata Document, or its URL, that cannot be used; the message is the `error_description`. */
export class ClientMetadataError extends Error {}

/**
 * What fetching a document costs the request that needs it (SECURITY.md, "SSRF through client metadata"):
 * `take` resolves when the fetch may go ahead, and throws MetadataFetchBudgetError when it may not.
 */
export interface FetchBudget {
  take(): Promise<void>;
}

/**
 * The requests of one address have had CLIENT_METADATA_FETCHES_PER_HOUR documents fetched in the hour:
 * nothing is fetched. The client-authenticated endpoints answer it 429 with `Retry-After`; the
 * authorization endpoint, its page.
 */
export class MetadataFetchBudgetError extends ClientMetadataError {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(`Too many client metadata documents were fetched for requests from this address in the last hour; try again in ${minutes === 1 ? '1 minute' : `${minutes} minutes`}.`);
  }
}

/** The `oauth_clients.client_id` column's width. */
export const MAX_CLIENT_ID_URL_LENGTH = 255;
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1']);
const MAX_REDIRECT_URIS = 20;

/**
 * A Client Identifier URL (draft-ietf-oauth-client-id-metadata-document §3): `https`, no user name or
 * password, a path other than `/`, no fragment, no `.` or `..` segments, written as the URL parser
 * writes it (it is compared as a string with the document's `client_id`). With `allowLoopback`
 * (CLIENT_METADATA_ALLOW_LOOPBACK, development only), `http://localhost:PORT/…` and
 * `http://127.0.0.1:PORT/…` too. Returns the URL and whether it is such a loopback one.
 */
export function parseClientIdUrl(clientId: string, allowLoopback: boolean): { url: URL; loopback: boolean } {
  if (clientId.length > MAX_CLIENT_ID_URL_LENGTH) throw new ClientMetadataError(`The client_id URL is longer than ${MAX_CLIENT_ID_URL_LENGTH} characters.`);
  if (/[^\x21-\x7e]/.test(clientId)) throw new ClientMetadataError('The client_id URL may hold printable ASCII characters only.');
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw new ClientMetadataError('The client_id is not a valid URL.');
  }
  const loopback = allowLoopback && url.protocol === 'http:' && LOOPBACK_NAMES.has(url.hostname);
  if (url.protocol !== 'https:' && !loopback) throw new ClientMetadataError('A client_id URL must use https.');
  if (url.username || url.password || clientId.includes('@')) throw new ClientMetadataError('A client_id URL must not contain a user name or password.');
  if (clientId.includes('#')) throw new ClientMetadataError('A client_id URL must not contain a fragment.');
  if (!isRedirectHost(url.hostname)) throw new ClientMetadataError('The host of the client_id URL must be a DNS name or an IP address.');
  if (url.href !== clientId) throw new ClientMetadataError(`The client_id URL must be written as ${url.href} (no dot segments, default port or upper-case host).`);
  if (url.pathname === '/') throw new ClientMetadataError('A client_id URL must have a path (e.g. https://app.example/oauth/client.json).');
  return { url, loopback };
}

/** What this server takes from a valid document. */
export interface ClientMetadata {
  name: string;
  redirectUris: string[];
  scopes: string[];
  clientUri?: string;
  logoUri?: string;
}

/**
 * The rules a fetched document must meet (docs/integrate-with-oauth.md, "Clients identified by a URL";
 * SECURITY.md, "A malicious client metadata document"): a JSON object whose `client_id` is exactly the
 * URL it was fetched from; `redirect_uris` as the developer portal requires them (client-rules.ts); the
 * name under the portal's rules (no look-alike of the platform's name, no mixed scripts, no invisible
 * characters); `token_endpoint_auth_method` `none` only (draft §4.1: a document cannot hold a shared
 * secret, and no key-based method is offered), so the client is public and must use PKCE.
 */
export function readClientMetadata(body: unknown, clientId: string, url: URL, context: { publicUrl: string; platformName: string }): ClientMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ClientMetadataError('The client metadata document is not a JSON object.');
  const doc = body as Record<string, unknown>;
  if (doc.client_id !== clientId) throw new ClientMetadataError('The client_id in the client metadata document is not the URL it was fetched from.');

  if (doc.client_secret !== undefined || doc.client_secret_expires_at !== undefined) {
    throw new ClientMetadataError('A client metadata document must not contain client_secret or client_secret_expires_at.');
  }
  // RFC 7591 §2 would read an absent method as client_secret_basic; a document cannot carry a secret
  // (draft §4.1), so this server reads it as `none`, the only method it accepts for such a client.
  const method = doc.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    throw new ClientMetadataError(`The client metadata document's token_endpoint_auth_method must be none (a public client with PKCE), not ${JSON.stringify(method)}.`);
  }

  const uris = doc.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) throw new ClientMetadataError('The client metadata document must list its redirect_uris.');
  if (uris.length > MAX_REDIRECT_URIS) throw new ClientMetadataError(`The client metadata document lists more than ${MAX_REDIRECT_URIS} redirect_uris.`);
  const redirectUris: string[] = [];
  for (const uri of uris) {
    if (typeof uri !== 'string') throw new ClientMetadataError('Each of redirect_uris must be a string.');
    try {
      assertValidRedirectUri(uri, context.publicUrl);
    } catch (error) {
      if (error instanceof ClientValidationError) throw new ClientMetadataError(`In the client metadata document: ${error.message}.`);
      throw error;
    }
    redirectUris.push(uri);
  }

  let name = url.host;
  if (doc.client_name !== undefined) {
    if (typeof doc.client_name !== 'string') throw new ClientMetadataError('client_name must be a string.');
    try {
      name = assertValidClientName(doc.client_name, context.platformName);
    } catch (error) {
      if (error instanceof ClientValidationError) throw new ClientMetadataError(`In the client metadata document, client_name: ${error.message}.`);
      throw error;
    }
  }

  let scopes = [...KNOWN_SCOPES].sort();
  if (doc.scope !== undefined) {
    if (typeof doc.scope !== 'string') throw new ClientMetadataError('scope must be a string of space-separated scopes.');
    // RFC 7591 §2: the server may narrow what a client asks to be registered for; unknown scopes are dropped.
    scopes = parseScope(doc.scope).filter(isKnownScope).sort();
    if (scopes.length === 0) throw new ClientMetadataError(`The client metadata document's scope names none of ${KNOWN_SCOPES.join(', ')}.`);
  }

  return {
    name,
    redirectUris: [...new Set(redirectUris)],
    scopes,
    clientUri: informationUri(doc.client_uri, 'client_uri'),
    logoUri: informationUri(doc.logo_uri, 'logo_uri'),
  };
}

/**
 * `client_uri` and `logo_uri` (RFC 7591 §2): optional, and when present an `https` URL with a proper host
 * and no user name or password, under the redirect URIs' character rules. Neither is fetched nor shown
 * as a link (draft §6.4, §7.2): the consent page names the client_id's host instead.
 */
function informationUri(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > 2000 || /[^\x21-\x7e]/.test(value)) throw new ClientMetadataError(`${field} must be an https URL of printable ASCII characters.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ClientMetadataError(`${field} must be an absolute https URL.`);
  }
  if (url.protocol !== 'https:' || url.username || url.password || !isRedirectHost(url.hostname)) throw new ClientMetadataError(`${field} must be an https URL with a host name and no credentials.`);
  return value;
}

const MIN_CACHE_SECONDS = 5 * 60;
const MAX_CACHE_SECONDS = 24 * 60 * 60;

/**
 * How long a valid document is kept (draft §4.2, RFC 9111 §5.2.2): its `max-age`, between 5 minutes and
 * 24 hours; `no-store`, `no-cache`, no header or no `max-age`: 5 minutes.
 */
export function cacheSeconds(cacheControl: string | undefined): number {
  if (!cacheControl) return MIN_CACHE_SECONDS;
  const directives = cacheControl.toLowerCase().split(',').map((part) => part.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache' || d.startsWith('no-cache='))) return MIN_CACHE_SECONDS;
  const maxAge = directives.map((d) => /^max-age\s*=\s*"?(\d+)"?$/.exec(d)).find(Boolean);
  if (!maxAge) return MIN_CACHE_SECONDS;
  return Math.min(MAX_CACHE_SECONDS, Math.max(MIN_CACHE_SECONDS, Number(maxAge[1])));
}

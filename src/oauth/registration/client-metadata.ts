import {
  APPLICATION_TYPES,
  ApplicationType,
  Client,
  TOKEN_ENDPOINT_AUTH_METHODS,
  TokenEndpointAuthMethod,
} from '../../clients/client.entity';
import {
  assertValidClientName,
  assertValidClientPageUri,
  assertValidRedirectUri,
  ClientValidationError,
  MAX_REDIRECT_URIS,
  parseClientScopes,
} from '../../clients/client-rules';
import { KNOWN_SCOPES } from '../../common/scopes';
import { SIGNING_ALGS } from '../../oidc/keys/signing-key.entity';
import { RegistrationError } from './registration-error';

const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
/** The grant types a dynamically registered client may hold: a user's grants only (no client_credentials, which acts for no user). */
const GRANT_TYPES = ['authorization_code', 'refresh_token', DEVICE_CODE] as const;

/** The registration a client asked for, checked and in the form it is stored (RFC 7591 §2). */
export interface ClientMetadata {
  name: string;
  redirectUris: string[];
  scopes: string[];
  applicationType: ApplicationType;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  /** `urn:ietf:params:oauth:grant-type:device_code` among its grant types (RFC 8628). */
  deviceFlow: boolean;
  clientUri: string | null;
  logoUri: string | null;
  idTokenSignedResponseAlg: 'RS256' | 'ES256';
}

export interface MetadataRules {
  publicUrl: string;
  platformName: string;
}

/** A field absent or `null`: RFC 7592 §2.2 lets the server treat both as "not given". */
function given(body: Record<string, unknown>, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, field) && body[field] !== null;
}

function metadataError(description: string): RegistrationError {
  return new RegistrationError('invalid_client_metadata', description);
}

function stringField(body: Record<string, unknown>, field: string): string | undefined {
  if (!given(body, field)) return undefined;
  const value = body[field];
  if (typeof value !== 'string') throw metadataError(`${field} must be a string.`);
  return value;
}

function stringArray(body: Record<string, unknown>, field: string, error: (description: string) => RegistrationError = metadataError): string[] | undefined {
  if (!given(body, field)) return undefined;
  const value = body[field];
  if (!Array.isArray(value) || !value.every((item): item is string => typeof item === 'string')) throw error(`${field} must be an array of strings.`);
  return value;
}

function oneOf<T extends string>(body: Record<string, unknown>, field: string, allowed: readonly T[], fallback: T): T {
  const value = stringField(body, field);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw metadataError(`${field} must be one of ${allowed.join(', ')}.`);
  return value as T;
}

/** A rule of the clients module broken: which RFC 7591 §3.2.2 error it is. */
/** An http URI on a loopback host (RFC 8252 §7.3), as the portal's rules allow it. */
function isLoopbackHttp(uri: string): boolean {
  try {
    const { protocol, hostname } = new URL(uri);
    return protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
  } catch {
    return false;
  }
}

function asRegistrationError(error: ClientValidationError): RegistrationError {
  const code = error.rule?.startsWith('redirect_uri') ? 'invalid_redirect_uri' : 'invalid_client_metadata';
  return new RegistrationError(code, error.message);
}

/**
 * Reads and checks the client metadata of a registration (RFC 7591 §2, §3.1) or of its replacement
 * (RFC 7592 §2.2), under the rules of every other registration (src/clients/client-rules.ts: names,
 * redirect URIs, scopes) plus those of RFC 7591: `application_type` `web` (redirect URIs in https only)
 * or `native` (also http on a loopback host, RFC 8252 §7.3); `token_endpoint_auth_method` among
 * discovery's; `grant_types` and `response_types` consistent (RFC 7591 §2.1). Fields it does not know are
 * ignored (RFC 7591 §2); `null` is the same as absent. Throws RegistrationError; changes nothing.
 *
 * `current`: for a replacement, the method of the registration replaced stays when none is sent, and a
 * public client cannot become confidential or the other way round.
 */
export function parseClientMetadata(body: unknown, rules: MetadataRules, current?: Pick<Client, 'tokenEndpointAuthMethod'>): ClientMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw metadataError('Send the client metadata as a JSON object (Content-Type: application/json).');
  }
  const fields = body as Record<string, unknown>;
  try {
    const redirectUris = stringArray(fields, 'redirect_uris', (d) => new RegistrationError('invalid_redirect_uri', d));
    if (!redirectUris || redirectUris.length === 0) throw new RegistrationError('invalid_redirect_uri', 'redirect_uris is required: at least one redirect URI.');
    if (redirectUris.length > MAX_REDIRECT_URIS) throw new RegistrationError('invalid_redirect_uri', `At most ${MAX_REDIRECT_URIS} redirect URIs.`);
    // Unsaid, the type follows the redirect URIs: a client that only listens on its own machine over http
    // is a native one (RFC 8252 §7.3). The MCP clients register so (an editor or a desktop app names
    // `http://localhost:PORT/callback` and no type); an explicit `web` still means https only.
    const applicationType = oneOf(fields, 'application_type', APPLICATION_TYPES, redirectUris.every(isLoopbackHttp) ? 'native' : 'web');
    for (const uri of redirectUris) {
      assertValidRedirectUri(uri, rules.publicUrl);
      if (applicationType === 'web' && uri.startsWith('http:')) {
        throw new RegistrationError(
          'invalid_redirect_uri',
          `Invalid redirect URI "${uri}": a web application's redirect URIs use https; register application_type native for an http URI on a loopback host (RFC 8252).`,
        );
      }
    }

    const clientName = stringField(fields, 'client_name');
    if (clientName === undefined) throw metadataError('client_name is required: the name users see on the consent page.');
    const name = assertValidClientName(clientName, rules.platformName);

    const fallbackMethod = current?.tokenEndpointAuthMethod ?? 'client_secret_basic';
    const tokenEndpointAuthMethod = oneOf(fields, 'token_endpoint_auth_method', TOKEN_ENDPOINT_AUTH_METHODS, fallbackMethod);
    if (current?.tokenEndpointAuthMethod && (current.tokenEndpointAuthMethod === 'none') !== (tokenEndpointAuthMethod === 'none')) {
      throw metadataError(`token_endpoint_auth_method cannot change from ${current.tokenEndpointAuthMethod} to ${tokenEndpointAuthMethod}: register a new client instead.`);
    }

    const grantTypes = stringArray(fields, 'grant_types') ?? ['authorization_code'];
    const unsupported = grantTypes.find((grant) => !(GRANT_TYPES as readonly string[]).includes(grant));
    if (unsupported !== undefined) throw metadataError(`grant_types: "${unsupported.slice(0, 100)}" is not supported here; use ${GRANT_TYPES.join(', ')}.`);
    if (!grantTypes.includes('authorization_code')) throw metadataError('grant_types must include authorization_code.');
    const responseTypes = stringArray(fields, 'response_types') ?? ['code'];
    if (responseTypes.length === 0 || responseTypes.some((type) => type !== 'code')) throw metadataError('response_types must be ["code"], the response type of authorization_code.');

    const scope = stringField(fields, 'scope');
    const scopes = scope === undefined ? [...KNOWN_SCOPES].sort() : parseClientScopes(scope);

    const clientUri = stringField(fields, 'client_uri') ?? null;
    if (clientUri !== null) assertValidClientPageUri(clientUri, 'client_uri');
    const logoUri = stringField(fields, 'logo_uri') ?? null;
    if (logoUri !== null) assertValidClientPageUri(logoUri, 'logo_uri');

    const idTokenSignedResponseAlg = oneOf(fields, 'id_token_signed_response_alg', SIGNING_ALGS, 'RS256');

    return {
      name,
      redirectUris: [...new Set(redirectUris)],
      scopes,
      applicationType,
      tokenEndpointAuthMethod,
      deviceFlow: grantTypes.includes(DEVICE_CODE),
      clientUri,
      logoUri,
      idTokenSignedResponseAlg,
    };
  } catch (error) {
    if (error instanceof ClientValidationError) throw asRegistrationError(error);
    throw error;
  }
}

/** RFC 7591 §3.2.1 / RFC 7592 §3: the registered metadata of a client, as the endpoints answer it. */
export interface RegisteredClientMetadata {
  client_id: string;
  client_id_issued_at: number;
  client_secret?: string;
  client_secret_expires_at?: number;
  registration_access_token: string;
  registration_client_uri: string;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: TokenEndpointAuthMethod;
  application_type: ApplicationType;
  scope: string;
  client_uri?: string;
  logo_uri?: string;
  id_token_signed_response_alg: 'RS256' | 'ES256';
}

/**
 * What the client holds registered, as RFC 7591 names it: the grant types it may use (a code always comes
 * with a refresh token here, so `refresh_token` is listed whether or not it was asked for), its secret only
 * when one was just made (it is stored hashed, shown once), and the registration access token the client
 * presented or was just given.
 */
export function registeredMetadata(client: Client, issuer: string, registrationAccessToken: string, secret?: string): RegisteredClientMetadata {
  const confidential = client.type === 'confidential';
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.createdAt / 1000),
    ...(secret !== undefined ? { client_secret: secret } : {}),
    // RFC 7591 §3.2.1: 0, the secret does not expire.
    ...(confidential ? { client_secret_expires_at: 0 } : {}),
    registration_access_token: registrationAccessToken,
    registration_client_uri: `${issuer}/oauth/register/${encodeURIComponent(client.clientId)}`,
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: ['authorization_code', 'refresh_token', ...(client.deviceFlow ? [DEVICE_CODE] : [])],
    response_types: ['code'],
    token_endpoint_auth_method: client.tokenEndpointAuthMethod ?? (confidential ? 'client_secret_basic' : 'none'),
    application_type: client.applicationType ?? 'web',
    scope: client.scopes.join(' '),
    ...(client.clientUri ? { client_uri: client.clientUri } : {}),
    ...(client.logoUri ? { logo_uri: client.logoUri } : {}),
    id_token_signed_response_alg: client.idTokenSignedResponseAlg,
  };
}

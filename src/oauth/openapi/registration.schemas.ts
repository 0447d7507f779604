import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { APPLICATION_TYPES, TOKEN_ENDPOINT_AUTH_METHODS } from '../../clients/client.entity';
import { KNOWN_SCOPES } from '../../common/scopes';

// Examples are visibly fake: no real secret ever appears in the reference (SECURITY.md).

const GRANT_TYPES = ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'];

/** One registered client, used by the request's and the answer's examples alike so that they describe the same client. */
const EXAMPLE = {
  client_id: 'sp_client_8Jx2kQ0m9vZr4tYw1aBcDe',
  client_secret: 'sp_cs_EXAMPLE',
  client_name: 'My agent',
  redirect_uris: ['http://127.0.0.1:33418/callback'],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  application_type: 'native',
  scope: 'openid profile read:startups',
  client_uri: 'https://agent.example/',
  logo_uri: 'https://agent.example/logo.png',
  id_token_signed_response_alg: 'RS256',
};

/** RFC 7591 §2 client metadata as `POST /oauth/register` and `PUT /oauth/register/{client_id}` take it (a JSON object). */
export const CLIENT_METADATA_SCHEMA = {
  type: 'object',
  required: ['redirect_uris', 'client_name'],
  properties: {
    redirect_uris: {
      type: 'array',
      items: { type: 'string', format: 'uri' },
      minItems: 1,
      maxItems: 10,
      example: EXAMPLE.redirect_uris,
      description:
        'Exact redirect URIs, under the rules of the developer portal: https, or http on a loopback host for a `native` application; no fragment, ' +
        'no credentials, written in the form a URL parser gives it. A loopback IP literal matches any port (RFC 8252 §7.3). Refused: `invalid_redirect_uri`.',
    },
    client_name: {
      type: 'string',
      maxLength: 200,
      example: EXAMPLE.client_name,
      description: 'Shown on the consent page (as unverified): 1–200 characters, no control or invisible characters, not like the platform\'s name, no word mixing scripts.',
    },
    application_type: { type: 'string', enum: [...APPLICATION_TYPES], example: EXAMPLE.application_type, description: '`web`: redirect URIs in https only. `native`: also http on a loopback host. Unsaid: `native` when every redirect URI is http on a loopback host, else `web`.' },
    token_endpoint_auth_method: {
      type: 'string',
      enum: [...TOKEN_ENDPOINT_AUTH_METHODS],
      default: 'client_secret_basic',
      example: EXAMPLE.token_endpoint_auth_method,
      description: '`none`: a public client (PKCE required), no secret. `client_secret_basic` / `client_secret_post`: a confidential client, given a secret once. It cannot change between public and confidential later.',
    },
    grant_types: {
      type: 'array',
      items: { type: 'string', enum: GRANT_TYPES },
      default: ['authorization_code'],
      example: EXAMPLE.grant_types,
      description: 'Must include `authorization_code`; `refresh_token` is always granted with it; the device grant (RFC 8628) on request. No `client_credentials`: such a client acts only for users who allow it.',
    },
    response_types: { type: 'array', items: { type: 'string', enum: ['code'] }, default: ['code'], example: EXAMPLE.response_types },
    scope: {
      type: 'string',
      example: EXAMPLE.scope,
      description: `Space-separated scopes it may ever ask for, among ${KNOWN_SCOPES.join(', ')}; all of them when left out.`,
    },
    client_uri: { type: 'string', format: 'uri', example: EXAMPLE.client_uri, description: 'Its home page: https (http on loopback), kept and returned, shown nowhere.' },
    logo_uri: { type: 'string', format: 'uri', example: EXAMPLE.logo_uri, description: 'Its logo: the same rules; kept and returned, never shown or fetched.' },
    id_token_signed_response_alg: { type: 'string', enum: ['RS256', 'ES256'], default: 'RS256', example: EXAMPLE.id_token_signed_response_alg },
    client_id: { type: 'string', example: EXAMPLE.client_id, description: 'PUT only: required, this client\'s id.' },
    client_secret: { type: 'string', example: EXAMPLE.client_secret, description: 'PUT only, optional: if sent, the current secret (never replaced here).' },
  },
  description: 'Other fields are ignored (RFC 7591 §2); `null` is the same as absent.',
};

/** RFC 7591 §3.2.1 and RFC 7592 §3: the registered client. */
export class RegisteredClientDto {
  @ApiProperty({ example: EXAMPLE.client_id })
  client_id: string;

  @ApiProperty({ example: 1767222000, description: 'Seconds since the epoch.' })
  client_id_issued_at: number;

  @ApiPropertyOptional({ example: EXAMPLE.client_secret, description: 'A confidential client\'s secret, in the registration\'s answer only (stored hashed, shown once).' })
  client_secret?: string;

  @ApiPropertyOptional({ example: 0, description: 'A confidential client: 0, its secret does not expire.' })
  client_secret_expires_at?: number;

  @ApiProperty({ example: 'sp_rat_EXAMPLE', description: 'The Bearer token of `registration_client_uri` (stored hashed): the one issued at registration.' })
  registration_access_token: string;

  @ApiProperty({ format: 'uri', example: `https://api.example.com/oauth/register/${EXAMPLE.client_id}` })
  registration_client_uri: string;

  @ApiProperty({ example: EXAMPLE.client_name })
  client_name: string;

  @ApiProperty({ type: [String], example: EXAMPLE.redirect_uris })
  redirect_uris: string[];

  @ApiProperty({ type: [String], example: EXAMPLE.grant_types })
  grant_types: string[];

  @ApiProperty({ type: [String], example: EXAMPLE.response_types })
  response_types: string[];

  @ApiProperty({ enum: [...TOKEN_ENDPOINT_AUTH_METHODS], example: EXAMPLE.token_endpoint_auth_method })
  token_endpoint_auth_method: string;

  @ApiProperty({ enum: [...APPLICATION_TYPES], example: EXAMPLE.application_type })
  application_type: string;

  @ApiProperty({ example: EXAMPLE.scope })
  scope: string;

  @ApiPropertyOptional({ format: 'uri', example: EXAMPLE.client_uri })
  client_uri?: string;

  @ApiPropertyOptional({ format: 'uri', example: EXAMPLE.logo_uri })
  logo_uri?: string;

  @ApiProperty({ enum: ['RS256', 'ES256'], example: EXAMPLE.id_token_signed_response_alg })
  id_token_signed_response_alg: string;
}

const REGISTRATION_ERROR_CODES = ['invalid_redirect_uri', 'invalid_client_metadata', 'invalid_request', 'access_denied', 'invalid_token', 'server_error', 'temporarily_unavailable'];

/** RFC 7591 §3.2.2 error (and RFC 6750 §3.1 at the client configuration endpoint). */
export class RegistrationErrorDto {
  @ApiProperty({ enum: REGISTRATION_ERROR_CODES, example: 'invalid_client_metadata' })
  error: string;

  @ApiProperty({ example: 'client_name is required: the name users see on the consent page.', description: 'English, for developers.' })
  error_description: string;
}

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', example: 42 } } };

/**
 * The errors of the registration endpoints: `endpoint` says which, `register` (RFC 7591 §3.2.2, 403 when
 * closed, 429 per IP) or a management method (RFC 7592: 401 `invalid_token`; PUT also 400).
 */
export function ApiRegistrationErrors(endpoint: 'register' | 'read' | 'update' | 'delete') {
  const content = (examples: Record<string, string>) => ({
    'application/json': {
      schema: { $ref: getSchemaPath(RegistrationErrorDto) },
      examples: Object.fromEntries(Object.entries(examples).map(([error, description]) => [error, { value: { error, error_description: description } }])),
    },
  });
  const takesBody = endpoint === 'register' || endpoint === 'update';
  const responses = [ApiExtraModels(RegistrationErrorDto)];
  if (takesBody) {
    responses.push(
      ApiResponse({
        status: 400,
        description: '`invalid_redirect_uri` (a redirect URI refused, or none), `invalid_client_metadata` (any other field, or a body that is not a JSON object); `invalid_request` for a body that is not JSON. Nothing is stored.',
        content: content({
          invalid_redirect_uri: 'Invalid redirect URI "https://app.example/cb#x": must not contain a fragment',
          invalid_client_metadata: 'client_name is required: the name users see on the consent page.',
        }),
      }),
    );
  } else {
    responses.push(ApiResponse({ status: 400, description: '`invalid_request`: a malformed request (a body that cannot be parsed, a client id that cannot be decoded).', content: content({ invalid_request: 'The request could not be parsed.' }) }));
  }
  // Whatever the method, a body may be sent.
  responses.push(
    ApiResponse({ status: 413, description: '`invalid_request`: the body is over BODY_LIMIT_BYTES.', content: content({ invalid_request: 'The request body is too large.' }) }),
    ApiResponse({ status: 415, description: '`invalid_request`: a body of a content type no parser takes (send `application/json`).', content: content({ invalid_request: 'This content type is not supported.' }) }),
  );
  if (endpoint === 'register') {
    responses.push(
      ApiResponse({ status: 403, description: '`access_denied`: DYNAMIC_REGISTRATION is `closed`.', content: content({ access_denied: 'Dynamic client registration is closed on this server.' }) }),
      ApiResponse({
        status: 429,
        description: '`invalid_request`: over REGISTRATION_MAX_PER_HOUR registrations from this IP (an IPv6 address by its /64) in the hour.',
        headers: RETRY_AFTER,
        content: content({ invalid_request: 'Too many requests; try again later.' }),
      }),
    );
  } else {
    responses.push(
      ApiResponse({
        status: 401,
        description: '`invalid_token` (RFC 6750 §3.1): no registration access token (bare challenge), or one that is not this client\'s: another client\'s, a deleted client\'s, a client not registered dynamically, an unknown one.',
        headers: { 'WWW-Authenticate': { required: true, description: '`Bearer realm="oauth-registration"`, with `error="invalid_token"` when a token was sent.', schema: { type: 'string', example: 'Bearer realm="oauth-registration", error="invalid_token"' } } },
        content: content({ invalid_token: 'The registration access token is not valid for this client.' }),
      }),
    );
  }
  responses.push(
    ApiResponse({ status: 431, description: '`invalid_request`: the request line or headers are over the limit.', content: content({ invalid_request: 'Request headers are too large.' }) }),
    ApiResponse({ status: 500, description: '`server_error`: something unexpected; nothing was changed.', content: content({ server_error: 'Something went wrong on our side.' }) }),
    ApiResponse({
      status: 503,
      description: '`temporarily_unavailable`: the database is unreachable or the instance is shutting down.',
      headers: RETRY_AFTER,
      content: content({ temporarily_unavailable: 'The service is temporarily unavailable; try again shortly.' }),
    }),
  );
  return applyDecorators(...responses);
}

import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { OAuthErrorCode } from '../../common/errors/oauth-error';
import { OAuthErrorDto } from '../../common/openapi/oauth-error.dto';

// Examples are visibly fake: no real secret ever appears in the reference (SECURITY.md).

export class TokenResponseDto {
  @ApiProperty({ example: 'sp_at_EXAMPLE', description: 'Opaque access token (Bearer, RFC 6750).' })
  access_token: string;

  @ApiProperty({
    enum: ['Bearer', 'DPoP'],
    example: 'Bearer',
    description: '`DPoP` when the request carried a DPoP proof (RFC 9449 §5): the access token is bound to its key and is sent as `Authorization: DPoP …` with a proof.',
  })
  token_type: string;

  @ApiProperty({ example: 3600, description: 'Seconds until the access token expires (ACCESS_TOKEN_TTL).' })
  expires_in: number;

  @ApiPropertyOptional({
    example: 'sp_rt_EXAMPLE',
    description: 'Opaque refresh token; each use returns a new one and retires this one. Not issued for `client_credentials` (RFC 6749 §4.4.3).',
  })
  refresh_token?: string;

  @ApiProperty({ example: 'profile read:startups', description: 'The granted scopes, space-separated.' })
  scope: string;

  @ApiPropertyOptional({
    example: 'eyJhbGciOiJSUzI1NiIsImtpZCI6Ii4uLiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiIuLi4ifQ.c2ln',
    description:
      'OpenID Connect: when the grant holds `openid` (authorization_code and refresh_token). A JWS signed RS256, or ES256 for a client registered for it, ' +
      'with `kid` in its header; claims `iss`, `sub`, `aud`, `exp`, `iat`, `auth_time`, `amr` (RFC 8176: how the user signed in), `acr` (when `acr_values` asked for `urn:startup-platform:acr:mfa`), `nonce` (when sent), `at_hash`, and `name`, `email`, `email_verified` by scope.',
  })
  id_token?: string;
}

export class IntrospectionResponseDto {
  @ApiProperty({ example: true })
  active: boolean;

  @ApiPropertyOptional({ example: 'profile read:startups' })
  scope?: string;

  @ApiPropertyOptional({ example: 'sp_client_8Jx2kQ0m9vZr4tYw1aBcDe', description: 'The public client_id.' })
  client_id?: string;

  @ApiPropertyOptional({ example: '42', description: 'The user id, as a string. Absent for a `client_credentials` token, which acts for its client alone.' })
  sub?: string;

  @ApiPropertyOptional({ example: 1767225600, description: 'Expiry, seconds since the epoch.' })
  exp?: number;

  @ApiPropertyOptional({ example: 1767222000, description: 'Issue time, seconds since the epoch.' })
  iat?: number;

  @ApiPropertyOptional({ enum: ['Bearer', 'DPoP', 'refresh_token'], example: 'Bearer' })
  token_type?: string;

  @ApiPropertyOptional({
    format: 'uri',
    example: 'https://api.example.com/api/public/v1',
    description: 'RFC 8707: the resource the token is for, `{PUBLIC_URL}/api/public/v1` or `{PUBLIC_URL}/mcp` (for a refresh token, the resource of its grant).',
  })
  aud?: string;

  @ApiPropertyOptional({
    example: { jkt: '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I' },
    description: 'RFC 9449 §6.2: for a DPoP-bound token, the SHA-256 thumbprint (RFC 7638) of the key it is bound to.',
    type: 'object',
    properties: { jkt: { type: 'string', example: '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I' } },
    required: ['jkt'],
  })
  cnf?: { jkt: string };
}

const ERROR_EXAMPLES: Partial<Record<OAuthErrorCode, string>> = {
  invalid_request: 'The request body must be application/x-www-form-urlencoded.',
  invalid_client: 'Client authentication failed.',
  invalid_grant: 'The authorization code has already been used.',
  unauthorized_client: 'Only a confidential client may use the client_credentials grant.',
  authorization_pending: 'The user has not yet decided; poll again after the interval.',
  slow_down: 'Polled faster than the interval; wait 10 seconds between polls.',
  access_denied: 'The user denied the request.',
  expired_token: 'The device code has expired; start again.',
  unsupported_grant_type: 'Supported grant types: authorization_code, refresh_token, client_credentials.',
  invalid_scope: 'The requested scope exceeds the scope of the grant.',
  server_error: 'Something went wrong on our side.',
  temporarily_unavailable: 'The service is temporarily unavailable; try again shortly.',
  invalid_dpop_proof: 'This DPoP proof was already used: send a new proof, with a new jti, for every request.',
  invalid_target: 'The resource is not the one this grant was authorized for.',
};

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', example: 42 } } };

/**
 * Every error of the client-authenticated endpoints, as RFC 6749 §5.2 JSON: 400 with the listed codes
 * (and always `invalid_request`, for a malformed, repeated or non-form parameter), 401 `invalid_client`,
 * and what any of them can answer: 413 (body over BODY_LIMIT_BYTES), 429 (RATE_LIMIT_CLIENT, CLIENT_METADATA_FETCHES_PER_HOUR), 431
 * (headers over the limit), 500 `server_error`, 503 `temporarily_unavailable`.
 */
export function ApiOAuthErrors(...codes: OAuthErrorCode[]) {
  const badRequest = [...new Set<OAuthErrorCode>(['invalid_request', ...codes.filter((c) => c !== 'invalid_client')])];
  const example = (code: OAuthErrorCode, description = ERROR_EXAMPLES[code] ?? code) => ({ value: { error: code, error_description: description } });
  const content = (examples: Record<string, ReturnType<typeof example>>) => ({
    'application/json': { schema: { $ref: getSchemaPath(OAuthErrorDto) }, examples },
  });
  const only = (code: OAuthErrorCode, description?: string) => content({ [code]: example(code, description) });
  return applyDecorators(
    ApiExtraModels(OAuthErrorDto),
    ApiResponse({
      status: 400,
      description: badRequest.map((c) => `\`${c}\``).join(', '),
      content: content(Object.fromEntries(badRequest.map((code) => [code, example(code)]))),
    }),
    ApiResponse({
      status: 401,
      description: '`invalid_client`; `WWW-Authenticate: Basic realm="oauth"` when HTTP Basic was used.',
      headers: { 'WWW-Authenticate': { description: 'Only when HTTP Basic was used.', schema: { type: 'string', example: 'Basic realm="oauth"' } } },
      content: only('invalid_client'),
    }),
    ApiResponse({ status: 413, description: '`invalid_request`: the body is over BODY_LIMIT_BYTES.', content: only('invalid_request', 'The request body is too large.') }),
    ApiResponse({
      status: 429,
      description:
        '`invalid_request`: over RATE_LIMIT_CLIENT requests a minute for this client; or, for a `client_id` URL whose document would have to be fetched, ' +
        'over CLIENT_METADATA_FETCHES_PER_HOUR documents fetched in the hour for requests from this IP (an IPv6 address by its /64).',
      headers: RETRY_AFTER,
      content: only('invalid_request', 'Too many requests; try again later.'),
    }),
    ApiResponse({ status: 431, description: '`invalid_request`: the request line or headers are over the limit.', content: only('invalid_request', 'Request headers are too large.') }),
    ApiResponse({ status: 500, description: '`server_error`: something unexpected; nothing was changed.', content: only('server_error') }),
    ApiResponse({
      status: 503,
      description: '`temporarily_unavailable`: the database is unreachable or the instance is shutting down.',
      headers: RETRY_AFTER,
      content: only('temporarily_unavailable'),
    }),
  );
}

const CLIENT_AUTH_PROPERTIES = {
  client_id: { type: 'string', example: 'sp_client_8Jx2kQ0m9vZr4tYw1aBcDe', description: 'For `client_secret_post` and public clients (`none`).' },
  client_secret: { type: 'string', example: 'sp_cs_EXAMPLE', description: 'For `client_secret_post` only; never together with HTTP Basic.' },
};

/** RFC 8707 §2: the `resource` parameter, the same at every endpoint that takes it. */
const RESOURCE_DESCRIPTION =
  'RFC 8707: the resource the access token is for, `{PUBLIC_URL}/api/public/v1` (the default) or `{PUBLIC_URL}/mcp` (a trailing slash ' +
  'or the default port spelled out names the same resource); anything else is `invalid_target`. One per request. The token is refused ' +
  'by the other resource.';

export const RESOURCE_PROPERTY = { type: 'string', format: 'uri', example: 'https://api.example.com/mcp', description: RESOURCE_DESCRIPTION };

export const TOKEN_FORM_SCHEMA = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: {
      type: 'string',
      enum: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'],
      example: 'authorization_code',
    },
    code: { type: 'string', example: 'sp_ac_EXAMPLE', description: 'authorization_code: the code from the redirect.' },
    redirect_uri: {
      type: 'string',
      example: 'http://localhost:8080/callback',
      description: 'authorization_code: the same redirect_uri as in the authorization request.',
    },
    code_verifier: {
      type: 'string',
      minLength: 43,
      maxLength: 128,
      pattern: '^[A-Za-z0-9._~-]{43,128}$',
      example: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      description: 'authorization_code: the PKCE verifier (RFC 7636 §4.1), when a code_challenge was sent.',
    },
    refresh_token: { type: 'string', example: 'sp_rt_EXAMPLE', description: 'refresh_token: the current refresh token.' },
    device_code: {
      type: 'string',
      example: 'sp_dc_EXAMPLE',
      description: 'urn:ietf:params:oauth:grant-type:device_code: the device_code from /oauth/device_authorization (RFC 8628 §3.4).',
    },
    scope: {
      type: 'string',
      example: 'read:startups',
      description:
        'refresh_token: optional, a subset of the granted scopes. client_credentials: optional, a subset of the client\'s registered scopes ' +
        'without the user scopes (`openid`, `profile`, `email`); without it, all of them.',
    },
    resource: {
      ...RESOURCE_PROPERTY,
      description:
        RESOURCE_DESCRIPTION +
        ' authorization_code, refresh_token, device_code: optional, and only the resource the grant was asked for (without it, that one). ' +
        'client_credentials: either resource.',
    },
    ...CLIENT_AUTH_PROPERTIES,
  },
};

export const DEVICE_AUTHORIZATION_FORM_SCHEMA = {
  type: 'object',
  properties: {
    scope: {
      type: 'string',
      example: 'openid profile read:startups',
      description: 'Space-separated, among the client\'s registered scopes; without it, all of them.',
    },
    resource: RESOURCE_PROPERTY,
    ...CLIENT_AUTH_PROPERTIES,
  },
};

/** RFC 8628 §3.2 */
export class DeviceAuthorizationResponseDto {
  @ApiProperty({ example: 'sp_dc_EXAMPLE', description: 'Opaque, for the device alone: it polls the token endpoint with it.' })
  device_code: string;

  @ApiProperty({
    example: 'BCDF-GHJK',
    pattern: '^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$',
    description: 'For the user to type at verification_uri; accepted in any case, with or without the hyphen.',
  })
  user_code: string;

  @ApiProperty({ format: 'uri', example: 'https://api.example.com/device', description: 'The page where the user enters the code.' })
  verification_uri: string;

  @ApiProperty({
    format: 'uri',
    example: 'https://api.example.com/device?user_code=BCDF-GHJK',
    description: 'The same page with the code filled in (e.g. for a QR code); the user still confirms.',
  })
  verification_uri_complete: string;

  @ApiProperty({ example: 600, description: 'Seconds until both codes expire (DEVICE_CODE_TTL).' })
  expires_in: number;

  @ApiProperty({ example: 5, description: 'Minimum seconds between polls of the token endpoint.' })
  interval: number;
}

export const TOKEN_INPUT_SCHEMA = {
  type: 'object',
  required: ['token'],
  properties: {
    token: { type: 'string', example: 'sp_at_EXAMPLE', description: 'An access or refresh token of this client.' },
    token_type_hint: {
      type: 'string',
      enum: ['access_token', 'refresh_token'],
      example: 'access_token',
      description: 'Where to look first; not trusted.',
    },
    ...CLIENT_AUTH_PROPERTIES,
  },
};

/** RFC 9126 §2.1: the authorization request's parameters, pushed as a form. */
export const PUSHED_REQUEST_FORM_SCHEMA = {
  type: 'object',
  required: ['response_type', 'redirect_uri'],
  properties: {
    response_type: { type: 'string', enum: ['code'], example: 'code' },
    redirect_uri: { type: 'string', example: 'http://localhost:8080/callback', description: 'Exactly one of the client\'s registered redirect URIs.' },
    scope: { type: 'string', example: 'profile read:startups', description: 'Space-separated; defaults to the client\'s registered scopes.' },
    state: { type: 'string', example: 'af0ifjsldkj' },
    code_challenge: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$', example: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', description: 'S256; required for public clients.' },
    code_challenge_method: { type: 'string', enum: ['S256'], example: 'S256' },
    response_mode: { type: 'string', enum: ['query', 'form_post'], example: 'form_post' },
    prompt: { type: 'string', example: 'consent', description: '`login`, `consent` or `none`.' },
    nonce: { type: 'string', example: 'n-0S6_WzA2Mj' },
    max_age: { type: 'integer', minimum: 0, example: 3600 },
    login_hint: { type: 'string', example: 'ayse@example.com' },
    acr_values: { type: 'string', maxLength: 512, example: 'urn:startup-platform:acr:mfa', description: '`urn:startup-platform:acr:mfa` asks for a sign-in with a second factor; other values are ignored.' },
    resource: RESOURCE_PROPERTY,
    ...CLIENT_AUTH_PROPERTIES,
  },
};

export class PushedAuthorizationResponseDto {
  @ApiProperty({
    example: 'urn:ietf:params:oauth:request_uri:EXAMPLE',
    description: 'Single use, for this client only: send it with `client_id` to `/oauth/authorize`.',
  })
  request_uri: string;

  @ApiProperty({ example: 60, description: 'Seconds it stays usable (PAR_TTL).' })
  expires_in: number;
}

export const CLIENT_AUTH_DESCRIPTION =
  'Client authentication: `client_secret_basic` (HTTP Basic with the form-urlencoded id and secret, RFC 6749 §2.3.1), ' +
  '`client_secret_post` (`client_id` and `client_secret` in the form) or `none` (a public client sends only `client_id`). ' +
  'A `client_id` that is an https URL names its client metadata document (docs/integrate-with-oauth.md, "Clients identified by a URL"): ' +
  'such a client uses `none`, and a document that cannot be fetched or used is `invalid_client` with the reason. ' +
  'Two methods in one request are `invalid_request`. Only `application/x-www-form-urlencoded` bodies are accepted; ' +
  'a parameter sent twice is `invalid_request`. Answers carry `Cache-Control: no-store`.';

const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];

/** RFC 8414 §2 authorization server metadata, as `/.well-known/oauth-authorization-server` serves it. */
export class AuthorizationServerMetadataDto {
  @ApiProperty({ format: 'uri', example: 'https://api.example.com', description: 'PUBLIC_URL; also the `iss` of every authorization response.' })
  issuer: string;

  @ApiProperty({ format: 'uri', example: 'https://api.example.com/oauth/authorize' })
  authorization_endpoint: string;

  @ApiProperty({ format: 'uri', example: 'https://api.example.com/oauth/token' })
  token_endpoint: string;

  @ApiProperty({ format: 'uri', example: 'https://api.example.com/oauth/revoke' })
  revocation_endpoint: string;

  @ApiProperty({ format: 'uri', example: 'https://api.example.com/oauth/introspect' })
  introspection_endpoint: string;

  @ApiProperty({ format: 'uri', example: 'https://api.example.com/oauth/userinfo', description: 'OpenID Connect Core §5.3.' })
  userinfo_endpoint: string;

  @ApiPropertyOptional({
    format: 'uri',
    example: 'https://api.example.com/oauth/register',
    description: 'RFC 7591: dynamic client registration. Listed while DYNAMIC_REGISTRATION is `open` (the default).',
  })
  registration_endpoint?: string;

  @ApiProperty({ type: [String], example: ['openid', 'profile', 'email', 'read:startups'] })
  scopes_supported: string[];

  @ApiProperty({ format: 'uri', example: 'https://api.example.com/oauth/jwks', description: 'OpenID Connect: the keys that verify ID tokens.' })
  jwks_uri: string;

  @ApiProperty({ format: 'uri', example: 'https://api.example.com/oauth/logout', description: 'OpenID Connect RP-Initiated Logout 1.0.' })
  end_session_endpoint: string;

  @ApiProperty({ type: [String], example: ['public'] })
  subject_types_supported: string[];

  @ApiProperty({ type: [String], example: ['RS256', 'ES256'] })
  id_token_signing_alg_values_supported: string[];

  @ApiProperty({ type: [String], example: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'amr', 'acr', 'nonce', 'at_hash', 'name', 'email', 'email_verified'] })
  claims_supported: string[];

  @ApiProperty({ example: false, description: 'No `claims` request parameter (OpenID Connect Core §5.5).' })
  claims_parameter_supported: boolean;

  @ApiProperty({ example: false, description: 'No `request` objects.' })
  request_parameter_supported: boolean;

  @ApiProperty({ example: false, description: 'No `request_uri` fetched from a URL (OpenID Connect Core §6.2); the `request_uri` of a pushed request (RFC 9126) is accepted.' })
  request_uri_parameter_supported: boolean;

  @ApiProperty({ format: 'uri', example: 'https://api.example.com/oauth/par', description: 'RFC 9126: pushed authorization requests.' })
  pushed_authorization_request_endpoint: string;

  @ApiProperty({
    example: false,
    description: 'RFC 9126 §5: not required of every client; an application registered with `--require-par` must push its requests.',
  })
  require_pushed_authorization_requests: boolean;

  @ApiProperty({ type: [String], example: ['code'] })
  response_types_supported: string[];

  @ApiProperty({ type: [String], example: ['query', 'form_post'], description: 'OAuth 2.0 Form Post Response Mode: `form_post`.' })
  response_modes_supported: string[];

  @ApiProperty({ type: [String], example: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'] })
  grant_types_supported: string[];

  @ApiProperty({ format: 'uri', example: 'https://api.example.com/oauth/device_authorization', description: 'RFC 8628 §4.' })
  device_authorization_endpoint: string;

  @ApiProperty({ type: [String], example: ['S256'] })
  code_challenge_methods_supported: string[];

  @ApiProperty({ type: [String], example: AUTH_METHODS })
  token_endpoint_auth_methods_supported: string[];

  @ApiProperty({ type: [String], example: AUTH_METHODS })
  revocation_endpoint_auth_methods_supported: string[];

  @ApiProperty({ type: [String], example: AUTH_METHODS })
  introspection_endpoint_auth_methods_supported: string[];

  @ApiProperty({ type: [String], example: ['none', 'login', 'consent'] })
  prompt_values_supported: string[];

  @ApiProperty({ type: [String], example: ['urn:startup-platform:acr:mfa'], description: 'OpenID Connect Discovery 1.0 §3: `acr_values` may ask for a sign-in with two factors; the ID token then carries `acr`.' })
  acr_values_supported: string[];

  @ApiProperty({ example: true, description: 'RFC 9207: authorization responses carry `iss`.' })
  authorization_response_iss_parameter_supported: boolean;

  @ApiProperty({ type: [String], example: ['ES256', 'RS256', 'PS256', 'EdDSA'], description: 'RFC 9449 §5.1: the algorithms a DPoP proof may be signed with.' })
  dpop_signing_alg_values_supported: string[];

  @ApiProperty({
    example: true,
    description:
      'draft-ietf-oauth-client-id-metadata-document §5: a `client_id` may be the https URL of the client\'s metadata document, fetched by this server (docs/integrate-with-oauth.md, "Clients identified by a URL").',
  })
  client_id_metadata_document_supported: boolean;

  @ApiProperty({ format: 'uri', example: 'https://api.example.com/docs' })
  service_documentation: string;
}

/** OpenID Connect Core §5.3.2: the claims of the granted scopes, as plain JSON. */
export class UserInfoDto {
  @ApiProperty({ example: '42', description: 'The user id, as a string; the same for every client.' })
  sub: string;

  @ApiPropertyOptional({ example: 'Ayşe Yılmaz', description: 'With the `profile` scope.' })
  name?: string;

  @ApiPropertyOptional({ example: 'ayse@example.com', description: 'With the `email` scope.' })
  email?: string;

  @ApiPropertyOptional({
    example: true,
    description: 'With the `email` scope. True once the address is confirmed: by the link mailed at sign-up or at a change of address, or by the operator (`users:create`).',
  })
  email_verified?: boolean;
}

const BEARER_ERROR_CODES = ['invalid_request', 'invalid_token', 'invalid_dpop_proof', 'insufficient_scope', 'server_error', 'temporarily_unavailable'];

/** RFC 6750 §3.1 error, with the challenge's two fields repeated in the body. */
export class BearerErrorDto {
  @ApiProperty({ enum: BEARER_ERROR_CODES, example: 'invalid_token', description: 'RFC 6750 §3.1 error code.' })
  error: string;

  @ApiProperty({ example: 'The access token is invalid, expired or revoked.', description: 'English, for developers.' })
  error_description: string;
}

/**
 * The errors of a Bearer-protected OAuth endpoint (UserInfo): RFC 6750 §3 statuses and challenges, with
 * a `{error, error_description}` body; and what any request can meet (413, 429, 431, 5xx) in the same body.
 */
export function ApiBearerErrors(scope: string) {
  const challenge = (description: string, example: string, required = true) => ({ 'WWW-Authenticate': { required, description, schema: { type: 'string', example } } });
  const content = (error: string, description: string) => ({
    'application/json': { schema: { $ref: getSchemaPath(BearerErrorDto) }, examples: { [error]: { value: { error, error_description: description } } } },
  });
  return applyDecorators(
    ApiExtraModels(BearerErrorDto),
    ApiResponse({
      status: 400,
      description: '`invalid_request`: a token sent as an `access_token` parameter instead of the header, or a malformed body.',
      headers: challenge('`Bearer realm="api", error="invalid_request"` for a token sent as a parameter.', 'Bearer realm="api", error="invalid_request"', false),
      content: content('invalid_request', 'Send the access token in the Authorization header (Bearer), not as an access_token parameter.'),
    }),
    ApiResponse({
      status: 401,
      description:
        '`invalid_token`: no token (bare challenge), or a malformed, unknown, expired or revoked one (`error="invalid_token"`), or a DPoP-bound token sent as Bearer. ' +
        '`invalid_dpop_proof`: `Authorization: DPoP …` with a missing, wrong or replayed proof (RFC 9449 §7.1).',
      headers: challenge(
        '`Bearer realm="api"` without a token, `Bearer realm="api", error="invalid_token"` with a bad one (RFC 6750 §3); for DPoP (RFC 9449 §7.1) `DPoP realm="api", error="invalid_token"` or `error="invalid_dpop_proof"`, with `algs`.',
        'Bearer realm="api", error="invalid_token"',
      ),
      content: content('invalid_token', 'The access token is invalid, expired or revoked.'),
    }),
    ApiResponse({
      status: 403,
      description: `\`insufficient_scope\`: a valid token without \`${scope}\`, such as any client_credentials token.`,
      headers: challenge('RFC 6750 §3.1.', `Bearer realm="api", error="insufficient_scope", scope="${scope}"`),
      content: content('insufficient_scope', 'UserInfo needs an access token granted with the openid scope.'),
    }),
    ApiResponse({ status: 413, description: '`invalid_request`: the body is over BODY_LIMIT_BYTES.', content: content('invalid_request', 'The request body is too large.') }),
    ApiResponse({
      status: 415,
      description: '`invalid_request`: a POST body that is neither form-urlencoded nor JSON (none is needed).',
      content: content('invalid_request', 'This content type is not supported.'),
    }),
    ApiResponse({
      status: 429,
      description: '`invalid_request`: over RATE_LIMIT_CLIENT requests a minute for the token\'s client (RATE_LIMIT_ANONYMOUS per IP without a valid token).',
      headers: RETRY_AFTER,
      content: content('invalid_request', 'Too many requests; try again later.'),
    }),
    ApiResponse({ status: 431, description: '`invalid_request`: the request line or headers are over the limit.', content: content('invalid_request', 'Request headers are too large.') }),
    ApiResponse({ status: 500, description: '`server_error`: something unexpected.', content: content('server_error', 'Something went wrong on our side.') }),
    ApiResponse({
      status: 503,
      description: '`temporarily_unavailable`: the database is unreachable or the instance is shutting down.',
      headers: RETRY_AFTER,
      content: content('temporarily_unavailable', 'The service is temporarily unavailable; try again shortly.'),
    }),
  );
}

/** RFC 9728 §2: the metadata of one protected resource. */
export class ProtectedResourceMetadataDto {
  @ApiProperty({ format: 'uri', example: 'https://api.example.com/api/public/v1', description: 'The resource identifier: the value of `resource` (RFC 8707) and the `aud` of its tokens.' })
  resource: string;

  @ApiProperty({ type: [String], example: ['https://api.example.com'], description: 'The issuer of this authorization server (PUBLIC_URL).' })
  authorization_servers: string[];

  @ApiProperty({ type: [String], example: ['profile', 'read:startups'], description: 'The scopes the resource\'s routes or tools need.' })
  scopes_supported: string[];

  @ApiProperty({ type: [String], example: ['header'], description: 'Tokens are sent only in the `Authorization` header (RFC 6750 §2.1).' })
  bearer_methods_supported: string[];

  @ApiProperty({ example: 'Startup Platform public API' })
  resource_name: string;

  @ApiProperty({ format: 'uri', example: 'https://api.example.com/docs' })
  resource_documentation: string;

  @ApiProperty({ example: false, description: 'Bearer tokens are accepted; DPoP-bound tokens too (RFC 9449).' })
  dpop_bound_access_tokens_required: boolean;
}

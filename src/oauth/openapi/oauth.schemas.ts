import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { OAuthErrorCode } from '../../common/errors/oauth-error';

// Examples are visibly fake: no real secret ever appears in the reference (CONTRACT §4).

export class TokenResponseDto {
  @ApiProperty({ example: 'sp_at_EXAMPLE', description: 'Opaque access token (Bearer, RFC 6750).' })
  access_token: string;

  @ApiProperty({ enum: ['Bearer'], example: 'Bearer' })
  token_type: string;

  @ApiProperty({ example: 3600, description: 'Seconds until the access token expires (ACCESS_TOKEN_TTL).' })
  expires_in: number;

  @ApiProperty({ example: 'sp_rt_EXAMPLE', description: 'Opaque refresh token; each use returns a new one and retires this one.' })
  refresh_token: string;

  @ApiProperty({ example: 'profile read:startups', description: 'The granted scopes, space-separated.' })
  scope: string;
}

export class OAuthErrorDto {
  @ApiProperty({ example: 'invalid_grant', description: 'RFC 6749 §5.2 error code.' })
  error: string;

  @ApiProperty({ example: 'The authorization code has expired.', description: 'English, for developers.' })
  error_description: string;
}

export class IntrospectionResponseDto {
  @ApiProperty({ example: true })
  active: boolean;

  @ApiPropertyOptional({ example: 'profile read:startups' })
  scope?: string;

  @ApiPropertyOptional({ example: 'sp_client_8Jx2kQ0m9vZr4tYw1aBcDe', description: 'The public client_id.' })
  client_id?: string;

  @ApiPropertyOptional({ example: '42', description: 'The user id, as a string.' })
  sub?: string;

  @ApiPropertyOptional({ example: 1767225600, description: 'Expiry, seconds since the epoch.' })
  exp?: number;

  @ApiPropertyOptional({ example: 1767222000, description: 'Issue time, seconds since the epoch.' })
  iat?: number;

  @ApiPropertyOptional({ enum: ['Bearer', 'refresh_token'], example: 'Bearer' })
  token_type?: string;
}

const ERROR_EXAMPLES: Partial<Record<OAuthErrorCode, string>> = {
  invalid_request: 'The request body must be application/x-www-form-urlencoded.',
  invalid_client: 'Client authentication failed.',
  invalid_grant: 'The authorization code has already been used.',
  unauthorized_client: 'This client may not use this grant type.',
  unsupported_grant_type: 'Supported grant types: authorization_code, refresh_token.',
  invalid_scope: 'The requested scope exceeds the scope of the grant.',
};

/** RFC 6749 §5.2 error responses: 400 with the listed codes, 401 `invalid_client` (with a Basic challenge when Basic was used). */
export function ApiOAuthErrors(...codes: OAuthErrorCode[]) {
  const badRequest = codes.filter((c) => c !== 'invalid_client');
  const example = (code: OAuthErrorCode) => ({ value: { error: code, error_description: ERROR_EXAMPLES[code] ?? code } });
  const content = (list: OAuthErrorCode[]) => ({
    'application/json': {
      schema: { $ref: getSchemaPath(OAuthErrorDto) },
      examples: Object.fromEntries(list.map((code) => [code, example(code)])),
    },
  });
  return applyDecorators(
    ApiExtraModels(OAuthErrorDto),
    ApiResponse({ status: 400, description: badRequest.map((c) => `\`${c}\``).join(', '), content: content(badRequest) }),
    ApiResponse({
      status: 401,
      description: '`invalid_client`; `WWW-Authenticate: Basic realm="oauth"` when HTTP Basic was used.',
      content: content(['invalid_client']),
    }),
    ApiResponse({ status: 429, description: 'Over RATE_LIMIT_CLIENT requests a minute for this client (`Retry-After` set).' }),
  );
}

const CLIENT_AUTH_PROPERTIES = {
  client_id: { type: 'string', description: 'For `client_secret_post` and public clients (`none`).' },
  client_secret: { type: 'string', description: 'For `client_secret_post` only; never together with HTTP Basic.' },
};

export const TOKEN_FORM_SCHEMA = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
    code: { type: 'string', description: 'authorization_code: the code from the redirect.' },
    redirect_uri: { type: 'string', description: 'authorization_code: the same redirect_uri as in the authorization request.' },
    code_verifier: { type: 'string', description: 'authorization_code: the PKCE verifier (43–128 characters), when a code_challenge was sent.' },
    refresh_token: { type: 'string', description: 'refresh_token: the current refresh token.' },
    scope: { type: 'string', description: 'refresh_token: optional, a subset of the granted scopes.' },
    ...CLIENT_AUTH_PROPERTIES,
  },
};

export const TOKEN_INPUT_SCHEMA = {
  type: 'object',
  required: ['token'],
  properties: {
    token: { type: 'string', description: 'An access or refresh token of this client.' },
    token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'], description: 'Where to look first; not trusted.' },
    ...CLIENT_AUTH_PROPERTIES,
  },
};

export const CLIENT_AUTH_DESCRIPTION =
  'Client authentication: `client_secret_basic` (HTTP Basic with the form-urlencoded id and secret, RFC 6749 §2.3.1), ' +
  '`client_secret_post` (`client_id` and `client_secret` in the form) or `none` (a public client sends only `client_id`). ' +
  'Two methods in one request are `invalid_request`. Only `application/x-www-form-urlencoded` bodies are accepted; ' +
  'a parameter sent twice is `invalid_request`. Answers carry `Cache-Control: no-store`.';

import { applyDecorators, Controller, Get, Header } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { JWK } from 'jose';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { OAUTH_JSON_ERRORS } from '../../common/errors/oauth-error';
import { OAuthErrorDto } from '../../common/openapi/oauth-error.dto';
import { JwksDto } from './dto/jwks.dto';
import { KEY_CACHE_MS } from './signing-keys.service';
import { SigningKeysService } from './signing-keys.service';

/**
 * A minute: short beside the time a rotated key stays published (ID_TOKEN_TTL + 5 minutes), so a cache
 * never holds on to a withdrawn key for long; a new key is listed on every instance before it signs,
 * and relying-party libraries refetch the set when they meet an unknown `kid`.
 */
export const JWKS_MAX_AGE_SECONDS = 60;

const DESCRIPTION = [
  'RFC 7517 JWK Set of the keys that sign ID tokens (OpenID Connect Core §10.1): the active RS256 and ES256 keys, and keys',
  'rotated out whose ID tokens may still be valid. Public members only. Plain JSON, not enveloped; open to anyone;',
  `cacheable for ${JWKS_MAX_AGE_SECONDS} s. Each instance reads the keys at most ${KEY_CACHE_MS / 1000} s late, and a new key signs only once every instance lists it.`,
].join(' ');

/** What any request to the JWKS can meet, in the OAuth JSON shape of the /oauth endpoints. */
function ApiJwksErrors() {
  const content = (error: string, description: string) => ({
    'application/json': { schema: { $ref: getSchemaPath(OAuthErrorDto) }, examples: { [error]: { value: { error, error_description: description } } } },
  });
  const retryAfter = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', example: 5 } } };
  return applyDecorators(
    ApiExtraModels(OAuthErrorDto),
    ApiResponse({ status: 400, description: '`invalid_request`: the request line is malformed (e.g. bad percent-encoding).', content: content('invalid_request', 'The request is malformed.') }),
    ApiResponse({ status: 431, description: '`invalid_request`: the request line or headers are over the limit.', content: content('invalid_request', 'The request line or headers are too large.') }),
    ApiResponse({ status: 500, description: '`server_error`: something unexpected.', content: content('server_error', 'Something went wrong on our side.') }),
    ApiResponse({
      status: 503,
      description: '`temporarily_unavailable`: the database is unreachable or the instance is shutting down.',
      headers: retryAfter,
      content: content('temporarily_unavailable', 'The service is temporarily unavailable; try again shortly.'),
    }),
  );
}

@ApiTags('oauth')
@Controller('oauth/jwks')
@SkipEnvelope({ errors: OAUTH_JSON_ERRORS })
export class JwksController {
  constructor(private readonly keys: SigningKeysService) {}

  @Get()
  @Public()
  @Header('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`)
  @ApiOperation({ summary: 'JSON Web Key Set (RFC 7517)', description: DESCRIPTION })
  @ApiOkResponse({
    type: JwksDto,
    headers: { 'Cache-Control': { description: `Cacheable for ${JWKS_MAX_AGE_SECONDS} seconds.`, schema: { type: 'string', example: `public, max-age=${JWKS_MAX_AGE_SECONDS}` } } },
  })
  @ApiJwksErrors()
  jwks(): Promise<{ keys: JWK[] }> {
    return this.keys.jwks();
  }
}

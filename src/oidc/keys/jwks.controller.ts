import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { JWK } from 'jose';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { OAUTH_JSON_ERRORS } from '../../common/errors/oauth-error';
import { ApiErrors } from '../../common/openapi/envelope.schemas';
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
  @ApiErrors()
  jwks(): Promise<{ keys: JWK[] }> {
    return this.keys.jwks();
  }
}

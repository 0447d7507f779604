import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-http-bearer';
import { AppError } from '../../common/errors/app-error';
import { AccessTokenLookupService } from '../access-token-lookup.service';
import { REALM } from '../challenges';
import { ProtectedResources } from '../protected-resources';
import { AccessTokenGrant } from '../principal';

/** RFC 6750 §2.1: `Authorization: Bearer <token>`, the scheme in any case; the guard runs this strategy only for it. */
export const BEARER_SCHEME = /^bearer(\s|$)/i;

/**
 * RFC 6750 Bearer access tokens, through `passport-http-bearer` (the design card's strategy). The library
 * takes the token from `Authorization: Bearer <token>`; BearerAuthGuard runs it only for that scheme, so a
 * token sent in the query or the body alone is never read (RFC 6750 §5.3: tokens in URLs end up in logs),
 * and one sent there beside the header makes the library refuse the request (RFC 6750 §2: one method per
 * request). `validate()` is the rest of the check: one look-up of the token's hash (cached for
 * TOKEN_CACHE_TTL_MS), no query at all for a string that cannot be one of this server's tokens. A failing
 * look-up (database down) is an error, not a 401. A token for another resource (RFC 8707) is refused as an
 * unknown one is.
 *
 * The library answers any refusal with its own challenge string; BearerAuthGuard turns every one into the
 * RFC 6750 §3.1 `invalid_token` challenge. The one refusal with another answer, a DPoP-bound token presented
 * as Bearer (RFC 9449 §7.2, the DPoP challenge), the strategy records on the request itself, which
 * `passReqToCallback` hands it.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(
    private readonly tokens: AccessTokenLookupService,
    private readonly resources: ProtectedResources,
  ) {
    super({ realm: REALM, passReqToCallback: true });
  }

  async validate(request: FastifyRequest, token: string): Promise<AccessTokenGrant | false> {
    const grant = await this.tokens.find(token);
    if (!grant) return false;
    // RFC 8707, RFC 9068 §4: a token is honoured only by the resource it was issued for, so a token an
    // agent got for /mcp cannot be replayed on the public API, nor the other way round (SECURITY.md,
    // "Token replay across resources"). Its audience came with the row (or the cache entry) just read.
    if (this.resources.audienceOf(grant.audience) !== this.resources.requestedAt(request)) return false;
    if (grant.jkt !== null) {
      (request.authentication ??= {}).tokenRefusal = new AppError('UNAUTHORIZED', { headers: { 'www-authenticate': this.resources.challengesAt(request).dpopInvalidToken } });
      return false;
    }
    return grant;
  }
}

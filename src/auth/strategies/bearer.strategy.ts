import type { IncomingHttpHeaders } from 'node:http';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { AccessTokenLookupService } from '../access-token-lookup.service';
import { REALM } from '../challenges';
import { AccessTokenGrant } from '../principal';
import { OwnedAuthenticateOptions, verifiedBy } from './owned-strategy';

/**
 * RFC 6750 Bearer access tokens, through `passport-http-bearer`, from the `Authorization` header only.
 * The library also takes `access_token` from the query string and the form body (RFC 6750 §2.2, §2.3);
 * this API does not: tokens in URLs end up in logs, histories and Referer headers (RFC 6750 §5.3). The
 * library is therefore handed a view of the request that has that one header and nothing else.
 *
 * `validate()` is the whole check: one look-up of the token's hash (cached for TOKEN_CACHE_TTL_MS), no
 * query at all for a string that cannot be one of this server's tokens. A failing look-up (database
 * down) is an error, not a 401. The failures become RFC 6750 §3 challenges in BearerAuthGuard.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly tokens: AccessTokenLookupService) {
    super({ realm: REALM });
  }

  /** The grant of a usable token; false for a malformed, unknown, expired or revoked one. */
  async validate(token: string): Promise<AccessTokenGrant | false> {
    return (await this.tokens.find(token)) ?? false;
  }

  override authenticate(request: { headers: IncomingHttpHeaders }, options?: OwnedAuthenticateOptions): void {
    verifiedBy(this, options);
    super.authenticate({ headers: { authorization: request.headers.authorization } } as never, options);
  }
}

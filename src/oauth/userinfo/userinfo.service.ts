import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessTokenLookupService } from '../../auth/access-token-lookup.service';
import { DPOP_SCHEME, DpopService } from '../../auth/dpop/dpop.service';
import { AccessTokenGrant } from '../../auth/principal';
import { RateLimitService } from '../../rate-limit/rate-limit.service';
import { RateLimitKeys } from '../../rate-limit/rate-limit.types';
import { UsersService } from '../../users/users.service';
import { BearerError } from './bearer-error';
import { UserClaims, userClaims } from '../../oidc/user-claims';

/** RFC 6750 §2.1: `Bearer` (any case), one or more spaces, the token. */
const BEARER = /^bearer +(\S+) *$/i;

/** OpenID Connect Core §5.3: what the access token's scopes let its client read about the user. */
@Injectable()
export class UserInfoService {
  constructor(
    private readonly tokens: AccessTokenLookupService,
    private readonly users: UsersService,
    private readonly rateLimit: RateLimitService,
    private readonly dpop: DpopService,
  ) {}

  async claims(request: FastifyRequest, reply: FastifyReply): Promise<UserClaims> {
    // RFC 6750 §2.2 and §2.3 (a token in the body or the query) are optional for a resource server, and
    // this one takes the header only: tokens in URLs and forms end up in logs (RFC 6750 §5.3). Saying so
    // beats answering as if no token had been sent.
    if (hasAccessTokenParameter(request.query) || hasAccessTokenParameter(request.body)) {
      throw BearerError.invalidRequest('Send the access token in the Authorization header (Bearer), not as an access_token parameter.');
    }
    const grant = await this.grantOf(request, reply);
    await this.rateLimit.enforce(reply, RateLimitKeys.client(grant.clientId), this.rateLimit.limits.client);
    // A client-credentials token acts for no user and never holds `openid` (docs/integrate-with-oauth.md): it is a valid
    // token without the scope this resource needs, which RFC 6750 §3.1 calls insufficient_scope.
    if (!grant.scopes.includes('openid')) {
      throw BearerError.insufficientScope('openid', 'UserInfo needs an access token granted with the openid scope.');
    }
    // Deleting a user deletes their tokens; a token that slipped through stands for no one.
    const user = grant.userId === null ? null : await this.users.findProfile(grant.userId);
    if (!user) throw BearerError.invalidToken();
    return userClaims(user, grant.scopes);
  }

  /** The grant of the request's Bearer or DPoP (RFC 9449 §7) credentials; failures are charged to the IP. */
  private async grantOf(request: FastifyRequest, reply: FastifyReply): Promise<AccessTokenGrant> {
    const authorization = request.headers.authorization;
    if (authorization !== undefined && DPOP_SCHEME.test(authorization)) {
      const outcome = await this.dpop.resource(request);
      if (outcome.kind === 'valid') return outcome.grant;
      await this.chargeAnonymous(request, reply);
      throw BearerError.dpop(outcome.error, outcome.description);
    }
    const presented = authorization === undefined ? undefined : BEARER.exec(authorization);
    // No Bearer credentials at all (no header, or another scheme): the bare challenge (RFC 6750 §3.1).
    if (!presented) {
      await this.chargeAnonymous(request, reply);
      throw authorization !== undefined && /^bearer(\s|$)/i.test(authorization) ? BearerError.invalidToken() : BearerError.missing();
    }
    const grant = await this.tokens.find(presented[1]);
    if (!grant) {
      await this.chargeAnonymous(request, reply);
      throw BearerError.invalidToken();
    }
    // RFC 9449 §7.2: a DPoP-bound token is no Bearer token.
    if (grant.jkt !== null) {
      await this.chargeAnonymous(request, reply);
      throw BearerError.dpop('invalid_token', 'This access token is bound to a DPoP key: send it as Authorization: DPoP <token> with a DPoP proof.');
    }
    return grant;
  }

  private async chargeAnonymous(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await this.rateLimit.enforce(reply, RateLimitKeys.anonymous(request.ip), this.rateLimit.limits.anonymous);
  }
}

function hasAccessTokenParameter(source: unknown): boolean {
  return typeof source === 'object' && source !== null && Object.prototype.hasOwnProperty.call(source, 'access_token');
}

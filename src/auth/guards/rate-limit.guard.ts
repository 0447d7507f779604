import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimitService } from '../../rate-limit/rate-limit.service';
import { RateLimitKeys } from '../../rate-limit/rate-limit.types';
import type { Authentication } from '../authentication';
import { AccessRules } from './access-rules';

/**
 * Rate limiting (auth-guards.ts), after authentication and before any answer about the credentials:
 * every request of a route that is not public is counted, so that every answer, errors included, carries
 * the RateLimit headers, and a caller over its limit gets 429 before learning whether its credentials
 * were good.
 *
 * Which counter (docs/using-the-api.md, Rate limits): the token's client when a valid token was presented
 * (the client is who the contract limits on Bearer routes, whether or not a key is sent beside it);
 * otherwise the API key, at its tier, when a valid one was sent; otherwise the client IP. Requests whose
 * credentials failed are charged the same way, so guessing keys or tokens spends the caller's budget.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly rules: AccessRules,
    private readonly rateLimit: RateLimitService,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const rule = this.rules.of(context);
    if (rule.kind === 'public') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { limits } = this.rateLimit;
    const found: Authentication | undefined = request.authentication;
    let counted: unknown;
    if (found?.grant) {
      // What a request is worth (each message of a batch) counts only for a client whose token is valid:
      // a refused request costs one, so a stranger's batch cannot spend an address's budget many times over.
      const requests = rule.kind === 'bearer' && rule.requestsOf ? rule.requestsOf(request) : 1;
      counted = this.rateLimit.enforce(reply, RateLimitKeys.client(found.grant.clientId), limits.client, requests);
    } else if (found?.apiKey) {
      counted = this.rateLimit.enforce(reply, RateLimitKeys.apiKey(found.apiKey.id), found.apiKey.tier === 'partner' ? limits.partner : limits.standard);
    } else {
      counted = this.rateLimit.enforce(reply, RateLimitKeys.anonymous(request.ip), limits.anonymous);
    }
    // Counted in memory: answered at once (RateLimitService.enforce); in Redis: once the count is back.
    return counted instanceof Promise ? counted.then(() => true) : true;
  }
}

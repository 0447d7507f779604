import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../common/errors/app-error';
import { RateLimitService } from '../../rate-limit/rate-limit.service';
import { RateLimitKeys } from '../../rate-limit/rate-limit.types';
import { BearerChallenge } from '../challenges';
import { ACCESS_KEY, AccessRule, DEFAULT_ACCESS } from '../decorators/public.decorator';
import { Principal } from '../principal';
import { API_KEY_HEADER } from '../strategies/api-key.strategy';
import { API_KEY_ABSENT, API_KEY_INVALID, ApiKeyAuthGuard, ApiKeyOutcome } from './api-key-auth.guard';
import { BEARER_MISSING, BearerAuthGuard, BearerOutcome } from './bearer-auth.guard';
import { DpopAuthGuard } from './dpop-auth.guard';
import { DPOP_SCHEME } from '../dpop/dpop.service';

/**
 * The one access check of the service, registered as APP_GUARD: every route needs a Bearer token unless
 * it declares `@Public()` or `@OptionalApiKey()`. The credentials are checked by the Passport strategies
 * `bearer` and `api-key` through their AuthGuards, which report rather than refuse: this guard also
 * counts the request against its rate limit, so that every answer of a limited route, errors included,
 * carries the RateLimit headers, and it decides the answer.
 *
 * Which counter a request is charged to: the token's client when a valid token is presented (the
 * client is who the contract limits on Bearer routes, whether or not a key is sent beside the token);
 * otherwise the API key when a valid one is sent; otherwise the client IP (anonymous). Requests whose
 * credentials fail are charged the same way, so guessing keys or tokens spends the caller's budget, and
 * a caller over the limit gets 429 before learning whether the credentials were good.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  // Route metadata never changes after start: reflect once per handler, not per request.
  private readonly rules = new WeakMap<object, AccessRule>();

  constructor(
    private readonly reflector: Reflector,
    private readonly bearer: BearerAuthGuard,
    private readonly dpop: DpopAuthGuard,
    private readonly apiKeys: ApiKeyAuthGuard,
    private readonly rateLimit: RateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const rule = this.ruleFor(context);
    if (rule.kind === 'public') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    request.principal =
      rule.kind === 'api-key' ? await this.withOptionalApiKey(context, request, reply) : await this.withBearer(context, request, reply, rule.scopes);
    return true;
  }

  private async withOptionalApiKey(context: ExecutionContext, request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
    const key = await this.apiKey(context, request);
    await this.chargeWithoutToken(request, reply, key);
    if (key.kind === 'invalid') throw new AppError('INVALID_API_KEY');
    return key.kind === 'valid' ? { scopes: [], apiKey: key.key } : { scopes: [] };
  }

  private async withBearer(context: ExecutionContext, request: FastifyRequest, reply: FastifyReply, scopes: readonly string[]): Promise<Principal> {
    // Both credentials are checked at once; without an API key header (the usual Bearer call) there is
    // nothing to wait for beside the token.
    const pendingKey = this.apiKey(context, request);
    const [token, key] = pendingKey instanceof Promise ? await Promise.all([this.token(context, request), pendingKey]) : [await this.token(context, request), pendingKey];

    if (token.kind !== 'valid') {
      await this.chargeWithoutToken(request, reply, key);
      throw new AppError('UNAUTHORIZED', { headers: { 'www-authenticate': token.challenge } });
    }

    const { grant } = token;
    await this.rateLimit.enforce(reply, RateLimitKeys.client(grant.clientId), this.rateLimit.limits.client);
    // A key sent beside a valid token must itself be valid (docs/using-the-api.md).
    if (key.kind === 'invalid') throw new AppError('INVALID_API_KEY');
    // RFC 6750 §3.1: the token is fine but does not cover this resource; name the scope it needs.
    if (!scopes.every((scope) => grant.scopes.includes(scope))) {
      throw new AppError('INSUFFICIENT_SCOPE', { headers: { 'www-authenticate': BearerChallenge.insufficientScope(scopes) } });
    }
    return {
      userId: grant.userId,
      clientId: grant.clientId,
      tokenId: grant.tokenId,
      scopes: grant.scopes,
      ...(key.kind === 'valid' ? { apiKey: key.key } : {}),
    };
  }

  /** Without a valid token, a call is charged to its valid API key (by tier), else to the client IP. */
  private async chargeWithoutToken(request: FastifyRequest, reply: FastifyReply, key: ApiKeyOutcome): Promise<void> {
    if (key.kind === 'valid') {
      const limit = key.key.tier === 'partner' ? this.rateLimit.limits.partner : this.rateLimit.limits.standard;
      await this.rateLimit.enforce(reply, RateLimitKeys.apiKey(key.key.id), limit);
    } else {
      await this.rateLimit.enforce(reply, RateLimitKeys.anonymous(request.ip), this.rateLimit.limits.anonymous);
    }
  }

  /**
   * Passport runs only when there is something for it to read: no header is no token (the bare
   * challenge). The `DPoP` scheme (RFC 9449 §7) goes to its own strategy, so only those requests pay for
   * a proof's signature check.
   */
  private token(context: ExecutionContext, request: FastifyRequest): Promise<BearerOutcome> | BearerOutcome {
    const authorization = request.headers.authorization;
    if (!authorization) return BEARER_MISSING;
    return DPOP_SCHEME.test(authorization) ? this.dpop.authenticate(context) : this.bearer.authenticate(context);
  }

  /** No header is anonymous; a repeated one is never one valid key; anything else is the strategy's to judge. */
  private apiKey(context: ExecutionContext, request: FastifyRequest): Promise<ApiKeyOutcome> | ApiKeyOutcome {
    const header = request.headers[API_KEY_HEADER];
    if (header === undefined) return API_KEY_ABSENT;
    if (Array.isArray(header)) return API_KEY_INVALID;
    return this.apiKeys.authenticate(context);
  }

  private ruleFor(context: ExecutionContext): AccessRule {
    const handler = context.getHandler();
    let rule = this.rules.get(handler);
    if (rule === undefined) {
      rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_KEY, [handler, context.getClass()]) ?? DEFAULT_ACCESS;
      this.rules.set(handler, rule);
    }
    return rule;
  }
}

import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../common/errors/app-error';
import type { Authentication } from '../authentication';
import { Principal } from '../principal';
import { ProtectedResources } from '../protected-resources';
import { AccessRules } from './access-rules';

/**
 * Scopes (auth-guards.ts), last: whether the caller the authentication guards found, now counted, may
 * use the route, and who it is (`request.principal`). The refusals are the app's own errors, with their
 * RFC 6750 §3 challenges, rendered by the exception filter.
 *
 * - `@Scopes(...)` or nothing (secure by default): a valid token, else the token's refusal, else (no
 *   Bearer credentials at all) 401 with the bare challenge; then a key sent beside it must be valid
 *   (docs/using-the-api.md); then the token must carry every scope, the route's and those its rule reads
 *   from the request (`scopesOf`), else 403 naming them (RFC 6750 §3.1).
 * - `@OptionalApiKey()`: a key that is sent must be valid; without one the caller is anonymous.
 */
@Injectable()
export class ScopesGuard implements CanActivate {
  constructor(
    private readonly rules: AccessRules,
    private readonly resources: ProtectedResources,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const rule = this.rules.of(context);
    if (rule.kind === 'public') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const found: Authentication | undefined = request.authentication;
    if (rule.kind === 'api-key') {
      if (found?.apiKeyRefusal) throw found.apiKeyRefusal;
      request.principal = found?.apiKey ? { scopes: [], apiKey: found.apiKey } : { scopes: [] };
      return true;
    }

    const grant = found?.grant;
    if (!grant) throw found?.tokenRefusal ?? new AppError('UNAUTHORIZED', { headers: { 'www-authenticate': this.resources.challengesAt(request).missing } });
    if (found.apiKeyRefusal) throw found.apiKeyRefusal;
    const needed = rule.scopesOf ? [...new Set([...rule.scopes, ...rule.scopesOf(request)])].sort() : rule.scopes;
    if (!needed.every((scope) => grant.scopes.includes(scope))) {
      throw new AppError('INSUFFICIENT_SCOPE', { headers: { 'www-authenticate': this.resources.challengesAt(request).insufficientScope(needed) } });
    }
    const principal: Principal = { userId: grant.userId, clientId: grant.clientId, tokenId: grant.tokenId, scopes: grant.scopes, audience: this.resources.audienceOf(grant.audience) };
    if (found.apiKey) principal.apiKey = found.apiKey;
    request.principal = principal;
    return true;
  }
}

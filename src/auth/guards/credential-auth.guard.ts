import type { IncomingHttpHeaders } from 'node:http';
import { ExecutionContext, Injectable, mixin, Type } from '@nestjs/common';
import { AuthGuard, IAuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import type { AppError } from '../../common/errors/app-error';
import type { Authentication } from '../authentication';
import { AccessRule } from '../decorators/public.decorator';
import { AccessTokenGrant, ApiKeyIdentity } from '../principal';
import { ProtectedResources, ResourceChallenges } from '../protected-resources';
import { AccessRules } from './access-rules';

/** How one credential's guard reads a request and a strategy's refusal. */
export interface Credential {
  /** `token` (Bearer or DPoP) or `api-key`: where the verdict is recorded. */
  kind: 'token' | 'api-key';
  /** Whether the request carries the credential, on a route whose rule reads it. */
  presented(rule: AccessRule, headers: IncomingHttpHeaders): boolean;
  /** The app's error for a refusal, from what the strategy handed Passport's `fail()` (its `info`). */
  refusal(info: unknown, challenges: ResourceChallenges): AppError;
  /** A credential refused before Passport runs (one no strategy can read, such as a repeated header). */
  malformed?(headers: IncomingHttpHeaders): boolean;
}

/**
 * The authentication guard of one credential (an API key, or a token: Bearer or DPoP), as a mixin like
 * `AuthGuard()` itself: `@nestjs/passport`'s `AuthGuard(strategy)` running the strategy of that name, as
 * Nest's documentation shows, with two differences, each for a reason.
 *
 * - It runs only when the request presents its credential on a route that reads it (`presented`): no
 *   header is no credential, and Passport is not run for nothing.
 * - It refuses nothing itself: `handleRequest` records the strategy's verdict, the grant or the app's
 *   own error, on `request.authentication`. RateLimitGuard then counts the request by it and ScopesGuard
 *   answers, so a caller over its limit gets 429 before learning whether its credentials were good, and
 *   failed credentials spend the caller's budget (docs/using-the-api.md, Rate limits).
 *
 * Passport is given Fastify's request, which has the parsed query and body as well as the headers.
 */
export function CredentialAuthGuard(strategy: string, credential: Credential): Type<IAuthGuard> {
  @Injectable()
  class CredentialGuard extends AuthGuard(strategy) {
    constructor(
      private readonly rules: AccessRules,
      private readonly resources: ProtectedResources,
    ) {
      super({ session: false });
    }

    override canActivate(context: ExecutionContext) {
      const rule = this.rules.of(context);
      const request = context.switchToHttp().getRequest<FastifyRequest>();
      if (rule.kind === 'public' || !credential.presented(rule, request.headers)) return true;
      if (credential.malformed?.(request.headers)) {
        this.record(request, false, credential.refusal(undefined, this.resources.challengesAt(request)));
        return true;
      }
      return super.canActivate(context);
    }

    /** Passport's verdict, recorded; only an error of the look-up itself (database down) is thrown here. */
    override handleRequest<U>(error: unknown, accepted: AccessTokenGrant | ApiKeyIdentity | false, info: unknown, context: ExecutionContext): U {
      if (error) throw error;
      const request = context.switchToHttp().getRequest<FastifyRequest>();
      this.record(request, accepted, accepted ? undefined : credential.refusal(info, this.resources.challengesAt(request)));
      return accepted as U;
    }

    private record(request: FastifyRequest, accepted: AccessTokenGrant | ApiKeyIdentity | false, refusal: AppError | undefined): void {
      const found: Authentication = (request.authentication ??= {});
      if (credential.kind === 'token') {
        if (accepted) found.grant = accepted as AccessTokenGrant;
        // A refusal the strategy recorded itself (BearerStrategy's DPoP-bound token) stands.
        else found.tokenRefusal ??= refusal;
      } else if (accepted) found.apiKey = accepted as ApiKeyIdentity;
      else found.apiKeyRefusal ??= refusal;
    }
  }
  return mixin(CredentialGuard);
}

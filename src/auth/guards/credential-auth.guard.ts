import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { ExecutionContext, Inject, mixin, Type } from '@nestjs/common';
import { AuthGuard, IAuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import type { AppError } from '../../common/errors/app-error';
import type { Authentication } from '../authentication';
import { AccessRule } from '../decorators/public.decorator';
import { AccessTokenGrant, ApiKeyIdentity } from '../principal';
import { AccessRules } from './access-rules';

/** Whether a request carries a guard's credential, on a route whose rule reads it. */
type Presented = (rule: AccessRule, headers: IncomingHttpHeaders) => boolean;

/**
 * The authentication guard of one credential (an API key, or a token: Bearer or DPoP), as a mixin like
 * `AuthGuard()` itself: `@nestjs/passport`'s AuthGuard running the strategy, as Nest's documentation
 * shows, with three differences, each for a reason.
 *
 * - It runs only when the request presents its credential on a route that reads it (`presented`): no
 *   header is no credential, and Passport is not run for nothing.
 * - It refuses nothing itself: `handleRequest` records the strategy's verdict, the grant or the app's
 *   own error, on `request.authentication`. RateLimitGuard then counts the request by it and ScopesGuard
 *   answers, so a caller over its limit gets 429 before learning whether its credentials were good, and
 *   failed credentials spend the caller's budget (docs/using-the-api.md, Rate limits).
 * - It names its strategy: `AuthGuard()` asks Passport for `defaultStrategy`, the name of the strategy
 *   instance of this guard's own application (see strategyName). AuthModule therefore registers no
 *   `PassportModule` options, which would replace this guard's.
 *
 * Passport is given Node's request (`request.raw`), as under Express, so that the helpers it adds
 * (`logIn`, `authInfo`…) stay off Fastify's request.
 */
export function CredentialAuthGuard(strategy: Type<{ name: string }>, credential: 'token' | 'api-key', presented: Presented): Type<IAuthGuard> {
  class CredentialGuard extends AuthGuard() {
    constructor(
      @Inject(strategy) instance: { name: string },
      private readonly rules: AccessRules,
    ) {
      super({ defaultStrategy: instance.name, session: false });
    }

    override canActivate(context: ExecutionContext) {
      const rule = this.rules.of(context);
      if (rule.kind === 'public' || !presented(rule, context.switchToHttp().getRequest<FastifyRequest>().headers)) return true;
      return super.canActivate(context);
    }

    override getRequest(context: ExecutionContext): IncomingMessage {
      return context.switchToHttp().getRequest<FastifyRequest>().raw;
    }

    /** Passport's verdict, recorded; only an error of the look-up itself (database down) is thrown here. */
    override handleRequest<U>(error: unknown, accepted: AccessTokenGrant | ApiKeyIdentity | false, refusal: AppError, context: ExecutionContext): U {
      if (error) throw error;
      const found: Authentication = (context.switchToHttp().getRequest<FastifyRequest>().authentication ??= {});
      if (credential === 'token') {
        if (accepted) found.grant = accepted as AccessTokenGrant;
        else found.tokenRefusal = refusal;
      } else if (accepted) found.apiKey = accepted as ApiKeyIdentity;
      else found.apiKeyRefusal = refusal;
      return accepted as U;
    }
  }
  return mixin(CredentialGuard);
}

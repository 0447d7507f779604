import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * The caller, as the access guards established it (see `Principal`). On `@Scopes` routes type the
 * parameter as `BearerPrincipal`: ScopesGuard has then checked the token.
 */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  return context.switchToHttp().getRequest<FastifyRequest>().principal;
});

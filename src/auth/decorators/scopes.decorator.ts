import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiOAuth2, ApiSecurity } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/envelope.schemas';
import { ACCESS_KEY, AccessRule } from './public.decorator';

/**
 * A valid Bearer access token (RFC 6750 §2.1, `Authorization` header only) carrying every listed scope.
 * Missing or bad token: 401 `UNAUTHORIZED` with a Bearer challenge; valid but lacking a scope: 403
 * `INSUFFICIENT_SCOPE` naming the scope (RFC 6750 §3.1). An `X-Api-Key` may be sent beside the token; if
 * sent it must be valid. The OpenAPI security says the same: a token (plain Bearer or obtained through
 * the OAuth flow with these scopes, or DPoP-bound with its proof, RFC 9449), optionally with a key.
 */
export const Scopes = (...scopes: string[]) => bearerAccess({ kind: 'bearer', scopes });

/**
 * As `@Scopes()`, for a route whose requests need scopes that depend on what each asks for (the MCP
 * endpoint: the scopes of the tools a `tools/call` names, src/mcp/tool-scopes.ts): `scopesOf` reads them
 * from the request, after authentication and the rate limit, and ScopesGuard answers a token without one
 * 403 `insufficient_scope` naming them, as on any other route.
 */
export const ScopesOfRequest = (scopesOf: (request: { body?: unknown }) => string[], requestsOf?: (request: { body?: unknown }) => number) =>
  bearerAccess({ kind: 'bearer', scopes: [], scopesOf, requestsOf });

function bearerAccess(rule: Extract<AccessRule, { kind: 'bearer' }>) {
  const { scopes } = rule;
  return applyDecorators(
    SetMetadata(ACCESS_KEY, rule satisfies AccessRule),
    ApiBearerAuth('bearer'),
    ApiOAuth2(scopes, 'oauth2'),
    ApiSecurity('dpop'),
    ApiSecurity({ bearer: [], 'api-key': [] }),
    ApiSecurity({ dpop: [], 'api-key': [] }),
    ApiSecurity({ oauth2: scopes, 'api-key': [] }),
    ApiErrors('UNAUTHORIZED', 'INVALID_API_KEY', 'INSUFFICIENT_SCOPE', 'RATE_LIMITED'),
  );
}

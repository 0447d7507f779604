import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';

export const ACCESS_KEY = 'access';

/** How a route is reached. Every route needs a Bearer token unless it declares otherwise. */
export type AccessRule =
  | { kind: 'public' }
  | { kind: 'api-key' }
  | {
      kind: 'bearer';
      scopes: string[];
      /**
       * Scopes a request needs besides `scopes`, read from the request itself (its parsed body): for a
       * route that answers several operations, such as the MCP endpoint's `tools/call` (src/mcp).
       */
      scopesOf?: (request: { body?: unknown }) => string[];
      /**
       * How many requests of the rate limit a request counts as, read from the request itself: each
       * message of a JSON-RPC batch at the MCP endpoint is one, as each call of the API is. One when absent.
       */
      requestsOf?: (request: { body?: unknown }) => number;
    };

/** What a route without any access decorator gets: a valid Bearer token, no particular scope. */
export const DEFAULT_ACCESS: AccessRule = { kind: 'bearer', scopes: [] };

/**
 * No credentials at all and no rate limit from the access guards (health, discovery, the OAuth endpoints
 * that authenticate clients themselves). Its OpenAPI security is the empty requirement: none needed.
 */
export const Public = () => applyDecorators(SetMetadata(ACCESS_KEY, { kind: 'public' } satisfies AccessRule), ApiSecurity({}));

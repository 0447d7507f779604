import { ApiKeyAuthGuard } from './api-key-auth.guard';
import { BearerAuthGuard } from './bearer-auth.guard';
import { DpopAuthGuard } from './dpop-auth.guard';
import { RateLimitGuard } from './rate-limit.guard';
import { ScopesGuard } from './scopes.guard';

/**
 * The access pipeline, registered by AuthModule as APP_GUARD providers in this order (Nest runs global
 * guards in the order they are registered), so that every route needs a Bearer token unless it declares
 * `@Public()` or `@OptionalApiKey()`. One guard, one job; each reads the route's rule through the
 * Reflector (AccessRules).
 *
 * 1. Authentication: Passport's AuthGuards for the credentials the request presents (`X-Api-Key`;
 *    `Authorization: Bearer` or `DPoP`). They record what each credential is worth and refuse nothing.
 * 2. RateLimitGuard: counts the request against the counter of who it is (the token's client, the key,
 *    or the IP), errors included; 429 when over the limit.
 * 3. ScopesGuard: answers a refused or missing credential (401) or a missing scope (403), and sets
 *    `request.principal`.
 *
 * Authentication refuses nothing so that step 2 comes before any answer about the credentials.
 */
export const AUTH_GUARDS = [ApiKeyAuthGuard, BearerAuthGuard, DpopAuthGuard, RateLimitGuard, ScopesGuard] as const;

import type { ApiKeyIdentity } from '../api-keys/api-keys.service';

export type { ApiKeyIdentity };

/** What a valid access token grants (RFC 6749 §1.4): looked up by its hash on every Bearer request. */
export interface AccessTokenGrant {
  tokenId: number;
  /** The user the token acts for; null when it acts for its client alone (client credentials, RFC 6749 §4.4). */
  userId: number | null;
  /** `oauth_clients.id` of the client the token was issued to. */
  clientId: number;
  scopes: string[];
  /** Epoch milliseconds. */
  expiresAt: number;
  /** RFC 9449 §6: the thumbprint of the DPoP key the token is bound to; null for a Bearer token. */
  jkt: string | null;
  /**
   * RFC 8707: the resource the token is for (its audience), a ProtectedResources identifier; null for a
   * token issued before audiences were stored, which is for the public API.
   */
  audience: string | null;
}

/**
 * Who is calling, set on `request.principal` by ScopesGuard. On Bearer routes (`@Scopes`) the
 * token's client and scopes are always present, and its user unless the token acts for its client alone
 * (`userId: null`); `apiKey` is there whenever a valid key was sent.
 */
export interface Principal {
  userId?: number | null;
  clientId?: number;
  tokenId?: number;
  scopes: readonly string[];
  /** RFC 8707: the resource the token is for (ProtectedResources), so that a route can require its own. */
  audience?: string;
  apiKey?: ApiKeyIdentity;
}

/** The principal of a route declared with `@Scopes(...)`: a valid token was presented. */
export type BearerPrincipal = Principal & { userId: number | null; clientId: number; tokenId: number; audience: string };

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

import { DPOP_SIGNING_ALGS } from './dpop/dpop-proof';

/** The protection space of every Bearer-protected route (RFC 6750 §3). */
export const REALM = 'api';

/**
 * `WWW-Authenticate` values (RFC 6750 §3, §3.1). A request without Bearer credentials gets the bare
 * challenge, with no error code: the client may simply not have known that authentication is needed.
 */
export const BearerChallenge = {
  missing: `Bearer realm="${REALM}"`,
  invalidToken: `Bearer realm="${REALM}", error="invalid_token"`,
  insufficientScope: (scopes: readonly string[]) => `Bearer realm="${REALM}", error="insufficient_scope", scope="${scopes.join(' ')}"`,
};

/**
 * RFC 9449 §7.1: the DPoP challenges, naming the algorithms a proof may use. Sent for DPoP credentials
 * that fail, and for a DPoP-bound token presented as Bearer (docs/using-the-api.md, "DPoP").
 */
export const DpopChallenge = dpopChallenges(REALM);

/** The DPoP challenges of one protection space (the public API's `api`, the MCP endpoint's `mcp`). */
export function dpopChallenges(realm: string): { invalidToken: string; invalidProof: string } {
  return {
    invalidToken: `DPoP realm="${realm}", error="invalid_token", algs="${DPOP_SIGNING_ALGS.join(' ')}"`,
    invalidProof: `DPoP realm="${realm}", error="invalid_dpop_proof", algs="${DPOP_SIGNING_ALGS.join(' ')}"`,
  };
}

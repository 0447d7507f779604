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

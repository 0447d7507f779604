/** The claims OpenID Connect Core §5.1 defines that this service can state about a user. */
export interface UserClaims {
  /** The user's id as a string: the same for every client (`subject_types_supported: ["public"]`). */
  sub: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
}

/**
 * The claims a grant's scopes release (OpenID Connect Core §5.4): `profile` → `name`; `email` →
 * `email` and `email_verified`. UserInfo and the ID token state them alike.
 *
 * `email_verified` is the account's (README.md, Your account): true for an address confirmed by the
 * link mailed at sign-up or at a change of address, or vouched for by the operator (`users:create`).
 */
export function userClaims(user: { id: number; name: string; email: string; emailVerified: boolean }, scopes: readonly string[]): UserClaims {
  const claims: UserClaims = { sub: String(user.id) };
  if (scopes.includes('profile')) claims.name = user.name;
  if (scopes.includes('email')) {
    claims.email = user.email;
    claims.email_verified = user.emailVerified;
  }
  return claims;
}

/**
 * The authentication context class a relying party may ask for with `acr_values` (OIDC Core §3.1.2.1,
 * docs/integrate-with-oauth.md, "Asking for a second factor"): a sign-in with two factors (RFC 8176
 * `mfa`: the password and an authenticator or recovery code, or a passkey that verified its user).
 */
export const MFA_ACR = 'urn:startup-platform:acr:mfa';

/** Whether a sign-in's methods (RFC 8176) meet MFA_ACR. */
export function meetsMfa(amr: readonly string[] | undefined | null): boolean {
  return amr?.includes('mfa') ?? false;
}

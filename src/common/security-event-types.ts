/**
 * What happened to an account (README.md, Your account). The names are stored and logged: add new ones, never
 * rename one.
 */
export const SECURITY_EVENT_TYPES = [
  'sign_in',
  'sign_in_failed',
  'sign_out',
  'consent_given',
  'access_revoked',
  'refresh_token_reuse',
  'client_registered',
  'client_updated',
  'client_secret_rotated',
  'client_deleted',
  'api_key_created',
  'api_key_revoked',
  // docs/second-factor.md: the second factor turned on or off, and a recovery code used to sign in.
  'totp_enabled',
  'totp_disabled',
  'recovery_code_used',
  /** Ten new recovery codes made on /account/security; the earlier ones stopped working. */
  'recovery_codes_renewed',
  // A passkey added to or removed from the account.
  'passkey_added',
  'passkey_removed',
  /** README.md, Your account: the address of a sign-up was confirmed and the account created. */
  'account_created',
  /** A new password set through a mailed link (forgot password): every session ended. */
  'password_reset',
  /** README.md, Your account: the password changed on /account/security; the account's other sessions ended. */
  'password_changed',
  /** The address changed through the link mailed to the new one; the old one was told. */
  'email_changed',
  /** A pending change of address cancelled through the link mailed to the current address. */
  'email_change_cancelled',
  /** The old address put back through the "this was not me" link: every way in ended, the password unusable. */
  'email_restored',
] as const;

export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

/**
 * The small facts that go with an event, so the account page can say which application or key it was
 * about. Names and public identifiers only: never a secret, a token, a password or a hash of one.
 */
export interface SecurityEventDetails {
  /** The OAuth application's display name and public client_id. */
  client?: string;
  clientId?: string;
  /** Scopes, space-separated (RFC 6749 §3.3). */
  scope?: string;
  /** An API key's name and its public prefix. */
  apiKey?: string;
  apiKeyPrefix?: string;
  /** The name a person gave a passkey. */
  passkey?: string;
}

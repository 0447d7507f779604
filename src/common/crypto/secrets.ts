import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Prefixes make leaked secrets recognisable to secret scanners and to people (SECURITY.md): every kind
 * has its own.
 */
export const SECRET_PREFIX = {
  apiKey: 'sp_key_',
  clientSecret: 'sp_cs_',
  accessToken: 'sp_at_',
  refreshToken: 'sp_rt_',
  authorizationCode: 'sp_ac_',
  /** The token of a link in a mail (README.md, Your account): confirm an address, reset a password. */
  mailToken: 'sp_mt_',
  /** RFC 7592 §1: what a dynamically registered client manages its registration with. */
  registrationAccessToken: 'sp_rat_',
  /** RFC 8628 §3.2: what a device polls the token endpoint with. */
  deviceCode: 'sp_dc_',
} as const;

/** A new secret: the prefix and `bytes` of CSPRNG output, base64url. 32 bytes = 256 bits. */
export function generateSecret(prefix: string, bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

/**
 * The stored form of a high-entropy secret: SHA-256, hex (a slow hash adds nothing at 256 bits). Node's
 * one-shot `hash()`: every API call hashes its key or token, and it builds no Hash object to do so.
 */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

/** Constant-time comparison of two hex digests (or any two strings of equal length). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  if (left.length !== right.length) {
    // Compare against itself so the time taken does not depend on where the inputs differ.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

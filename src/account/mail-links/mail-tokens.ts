import { generateSecret, SECRET_PREFIX, sha256Hex } from '../../common/crypto/secrets';

/**
 * The token of a link in a mail (README.md, Your account; SECURITY.md, "Links in mails"): 256 random
 * bits with a recognisable prefix, stored only as its SHA-256 hash, so a copy of the database opens no
 * link. Anything that does not look like one is never looked up.
 */
export function newMailToken(): { token: string; hash: string } {
  const token = generateSecret(SECRET_PREFIX.mailToken);
  return { token, hash: sha256Hex(token) };
}

/** The hash a token is stored under, or null for a value that cannot be a token. */
export function mailTokenHash(value: unknown): string | null {
  if (typeof value !== 'string' || !/^sp_mt_[A-Za-z0-9_-]{43}$/.test(value)) return null;
  return sha256Hex(value);
}

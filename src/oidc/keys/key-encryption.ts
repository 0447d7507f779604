import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, KeyObject, randomBytes } from 'node:crypto';

/**
 * Encryption of the private signing keys at rest. Scheme `v1`: AES-256-GCM (NIST SP 800-38D) with a
 * random 96-bit IV per encryption and a 128-bit tag, under a 256-bit key derived from
 * KEY_ENCRYPTION_SECRET with HKDF-SHA256 (RFC 5869). The additional authenticated data binds a
 * ciphertext to its key's row (kid and alg), so a ciphertext copied onto another row fails as tampered.
 *
 * Stored as one self-describing text: `v1.<secretId>.<iv>.<tag>.<ciphertext>` (base64url parts).
 * `secretId` is derived from the secret with its own HKDF label, so it names which secret encrypted a
 * key without revealing anything of the encryption key; a later scheme (`v2`, another secret) can be
 * recognised and migrated row by row.
 */
export const ENCRYPTION_SCHEME = 'v1';
// RFC 5869 §3.1: a fixed, application-specific salt; the secret itself carries the entropy (32+ characters).
const SALT = 'startup-platform/signing-keys';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The additional authenticated data of a signing key's private part: it decrypts only on its own row. */
export function signingKeyAad(kid: string, alg: string): string {
  return `signing-key:${alg}:${kid}`;
}

export type DecryptionFailure = 'unknown-scheme' | 'other-secret' | 'tampered';

/** A stored private key could not be decrypted; `reason` says why, the message never holds key material. */
export class KeyDecryptionError extends Error {
  override readonly name = 'KeyDecryptionError';
  constructor(readonly reason: DecryptionFailure) {
    super(
      reason === 'other-secret'
        ? 'the key was encrypted under another KEY_ENCRYPTION_SECRET'
        : reason === 'tampered'
          ? 'the encrypted key fails its integrity check (it was modified)'
          : 'the encrypted key uses an unknown scheme',
    );
  }
}

export class KeyEncryption {
  /** Names the secret (not secret itself): equal for equal secrets, unrelated to the encryption key. */
  readonly secretId: string;
  /** A KeyObject: createCipheriv then skips importing the key on every call (bench/sealer.ts). */
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, SALT, 'aes-256-gcm key v1', 32)));
    this.secretId = Buffer.from(hkdfSync('sha256', secret, SALT, 'secret id v1', 9)).toString('base64url');
  }

  encrypt(plaintext: string, associatedData: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [ENCRYPTION_SCHEME, this.secretId, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  /** The secret id of a stored ciphertext, or undefined when it is not of a known scheme. */
  static secretIdOf(stored: string): string | undefined {
    const parts = stored.split('.');
    return parts.length === 5 && parts[0] === ENCRYPTION_SCHEME ? parts[1] : undefined;
  }

  decrypt(stored: string, associatedData: string): string {
    const parts = stored.split('.');
    if (parts.length !== 5 || parts[0] !== ENCRYPTION_SCHEME) throw new KeyDecryptionError('unknown-scheme');
    const [, secretId, iv, tag, ciphertext] = parts;
    if (secretId !== this.secretId) throw new KeyDecryptionError('other-secret');
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new KeyDecryptionError('tampered');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, ivBytes, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      // GCM's tag check failed: the ciphertext, IV, tag or associated data changed.
      throw new KeyDecryptionError('tampered');
    }
  }
}

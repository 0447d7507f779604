import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, KeyObject, randomBytes } from 'node:crypto';
import { safeEqual } from './secrets';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 256-bit key for one purpose, derived from SESSION_SECRET with HKDF-SHA256 (RFC 5869). */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'startup-platform/oauth', purpose, 32));
}

/**
 * Seals small JSON payloads with AES-256-GCM: the result is confidential and tamper-evident, so a
 * browser can carry state (the sign-in session, the pending authorization request) and any instance
 * behind a load balancer can read it back with the shared secret, with no server-side store. The
 * purpose is bound in as associated data, so a value sealed for one purpose never opens as another.
 */
export class Sealer {
  /** A KeyObject: createCipheriv then skips importing the key on every call (bench/sealer.ts). */
  private readonly key: KeyObject;

  constructor(
    secret: string,
    private readonly purpose: string,
  ) {
    this.key = createSecretKey(deriveKey(secret, `seal:${purpose}`));
  }

  /** `expiresAt` (epoch ms) travels inside the sealed payload and is checked by `open`. */
  seal(payload: object, expiresAt: number): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(this.purpose, 'utf8'));
    const plaintext = Buffer.from(JSON.stringify({ ...payload, exp: expiresAt }), 'utf8');
    const sealed = Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${sealed.toString('base64url')}`;
  }

  /**
   * The payload, or null when the value is malformed, tampered with, sealed for another purpose or expired
   * at `now` (epoch ms, from the caller's Clock: README.md, Tests).
   */
  open<T extends object>(value: string | undefined, now: number): (T & { exp: number }) | null {
    if (typeof value !== 'string' || !value.startsWith(`${VERSION}.`) || value.length > 8192) return null;
    const raw = Buffer.from(value.slice(VERSION.length + 1), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES + 2) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(this.purpose, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const plaintext = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
      const payload = JSON.parse(plaintext.toString('utf8')) as T & { exp: number };
      if (typeof payload !== 'object' || payload === null || typeof payload.exp !== 'number' || payload.exp <= now) return null;
      return payload;
    } catch {
      return null;
    }
  }
}

/**
 * CSRF tokens bound to the session (OWASP "synchronizer token", stateless variant): an HMAC of the
 * session's random id. A page from another site cannot read the cookie, so it cannot compute the
 * token; the comparison is constant-time.
 */
export class CsrfTokens {
  /** A KeyObject, not a Buffer: createHmac then skips importing the key on every call (bench/csrf.ts: about 7× cheaper). */
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = createSecretKey(deriveKey(secret, 'csrf'));
  }

  issue(sessionId: string): string {
    return createHmac('sha256', this.key).update(sessionId, 'utf8').digest('base64url');
  }

  verify(sessionId: string, token: unknown): boolean {
    if (typeof token !== 'string' || token.length === 0 || token.length > 100) return false;
    return safeEqual(this.issue(sessionId), token);
  }
}

import { createHash } from 'node:crypto';
import { safeEqual } from '../common/crypto/secrets';

/** RFC 7636 §4.1: 43–128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** RFC 7636 §4.2: an S256 challenge is BASE64URL(SHA-256(verifier)), always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isValidCodeVerifier(value: string): boolean {
  return VERIFIER.test(value);
}

export function isValidS256Challenge(value: string): boolean {
  return S256_CHALLENGE.test(value);
}

/** RFC 7636 §4.2: code_challenge = BASE64URL-ENCODE(SHA256(ASCII(code_verifier))). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** RFC 7636 §4.6: the verifier must be well-formed and hash to the stored challenge (compared in constant time). */
export function verifyS256(verifier: string, challenge: string): boolean {
  if (!isValidCodeVerifier(verifier)) return false;
  return safeEqual(s256Challenge(verifier), challenge);
}

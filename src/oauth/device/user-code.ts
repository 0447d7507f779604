import { randomInt } from 'node:crypto';

/**
 * RFC 8628 §6.1: consonants only (no vowels, so no words; no look-alikes such as I/L or O/0), upper case
 * only, so a user types what they read on a TV across the room. 20^8 ≈ 2^34.6 codes, guessed only
 * through the throttled `/device` page (SECURITY.md, "Guessing user codes").
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;

/** A new user code, normalised (8 letters, no hyphen): `crypto.randomInt` draws each letter without bias. */
export function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** As shown to the user and in `verification_uri_complete`: `XXXX-XXXX`. */
export function formatUserCode(normalised: string): string {
  return `${normalised.slice(0, 4)}-${normalised.slice(4)}`;
}

/**
 * What the user typed, as the stored form (RFC 8628 §6.1): the case, surrounding spaces and what
 * separates the two halves (a hyphen, spaces, both or nothing) do not matter. Anything else (another
 * letter, a non-ASCII letter that upper-cases to one of ours such as "ſ", a digit, more or fewer letters,
 * a hyphen elsewhere) is no user code at all: null.
 */
export function normaliseUserCode(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > 64) return null;
  // ASCII letters are checked before upper-casing: toUpperCase maps some other letters onto ASCII ones.
  const match = /^([A-Za-z]{4})(?:\s*-\s*|\s+)?([A-Za-z]{4})$/.exec(input.trim());
  if (!match) return null;
  const code = (match[1] + match[2]).toUpperCase();
  for (const letter of code) if (!USER_CODE_ALPHABET.includes(letter)) return null;
  return code;
}

import fc from 'fast-check';
import { KeyDecryptionError, KeyEncryption } from './key-encryption';

const SECRET = 'a key encryption secret of 32+ characters';
const AAD = 'signing-key:RS256:kid-1';

function failureOf(work: () => unknown): string | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(KeyDecryptionError);
    return (error as KeyDecryptionError).reason;
  }
}

describe('KeyEncryption (AES-256-GCM under an HKDF-SHA256 key)', () => {
  const sut = new KeyEncryption(SECRET);

  it('decrypts what it encrypted, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 4000 }), fc.string({ maxLength: 100 }), (plaintext, aad) => {
        expect(sut.decrypt(sut.encrypt(plaintext, aad), aad)).toBe(plaintext);
      }),
    );
  });

  it('stores a self-describing text with a fresh IV each time and nothing of the plaintext', () => {
    const plaintext = '{"kty":"RSA","d":"private-exponent"}';
    const first = sut.encrypt(plaintext, AAD);
    const second = sut.encrypt(plaintext, AAD);
    expect(first).toMatch(/^v1\.[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(first.split('.')[2]).not.toBe(second.split('.')[2]);
    expect(first.split('.')[4]).not.toBe(second.split('.')[4]);
    expect(first).not.toContain('private-exponent');
    expect(Buffer.from(first.split('.')[4], 'base64url').toString('latin1')).not.toContain('private');
    expect(KeyEncryption.secretIdOf(first)).toBe(sut.secretId);
  });

  it('names the secret with an id that is stable for one secret and differs for another', () => {
    expect(new KeyEncryption(SECRET).secretId).toBe(sut.secretId);
    expect(new KeyEncryption(`${SECRET}!`).secretId).not.toBe(sut.secretId);
  });

  it('refuses a wrong secret as such, with a message that holds no key material', () => {
    const stored = sut.encrypt('{"d":"secret-member"}', AAD);
    const other = new KeyEncryption('another secret, also 32+ characters long');
    expect(failureOf(() => other.decrypt(stored, AAD))).toBe('other-secret');
    expect(() => other.decrypt(stored, AAD)).toThrow('the key was encrypted under another KEY_ENCRYPTION_SECRET');
  });

  it('detects any change to the IV, the tag, the ciphertext or the associated data', () => {
    const stored = sut.encrypt('{"kty":"EC","d":"abc"}', AAD);
    const parts = stored.split('.');
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 4 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (part, at, xor) => {
        const bytes = Buffer.from(parts[part], 'base64url');
        bytes[at % bytes.length] ^= xor;
        const changed = [...parts];
        changed[part] = bytes.toString('base64url');
        expect(failureOf(() => sut.decrypt(changed.join('.'), AAD))).toBe('tampered');
      }),
    );
    // The same ciphertext on another key's row (another kid) does not decrypt.
    expect(failureOf(() => sut.decrypt(stored, 'signing-key:RS256:kid-2'))).toBe('tampered');
    // Truncated parts are tampering too, never an exception of another kind.
    expect(failureOf(() => sut.decrypt([parts[0], parts[1], parts[2].slice(2), parts[3], parts[4]].join('.'), AAD))).toBe('tampered');
    expect(failureOf(() => sut.decrypt([parts[0], parts[1], parts[2], parts[3].slice(4), parts[4]].join('.'), AAD))).toBe('tampered');
  });

  it('refuses a text of an unknown scheme', () => {
    const stored = sut.encrypt('x', AAD);
    expect(failureOf(() => sut.decrypt(stored.replace(/^v1/, 'v9'), AAD))).toBe('unknown-scheme');
    expect(failureOf(() => sut.decrypt('not encrypted at all', AAD))).toBe('unknown-scheme');
    expect(KeyEncryption.secretIdOf('v9.a.b.c.d')).toBeUndefined();
  });
});

import fc from 'fast-check';
import { formatUserCode, generateUserCode, normaliseUserCode, USER_CODE_ALPHABET } from './user-code';

describe('user codes (RFC 8628 §6.1)', () => {
  it('are 8 letters of the consonant alphabet, shown XXXX-XXXX', () => {
    for (let i = 0; i < 200; i++) {
      const code = generateUserCode();
      expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
      expect(formatUserCode(code)).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    }
  });

  it('draw every letter of the alphabet', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) for (const letter of generateUserCode()) seen.add(letter);
    expect([...seen].sort().join('')).toBe(USER_CODE_ALPHABET);
  });

  it('are accepted in any case, with or without the hyphen, with spaces around', () => {
    expect(normaliseUserCode('bcdf-ghjk')).toBe('BCDFGHJK');
    expect(normaliseUserCode('  BcDfGhJk ')).toBe('BCDFGHJK');
    expect(normaliseUserCode('BCDF-GHJK')).toBe('BCDFGHJK');
  });

  it('refuse anything else', () => {
    for (const bad of ['BCDFGHJ', 'BCDFGHJKL', 'ABCD-EFGH', 'BCDF--GHJK', 'BCD-FGHJK', 'BCDF GHJK', '12345678', '', 'ßCDFGHJK']) {
      expect(normaliseUserCode(bad)).toBeNull();
    }
    expect(normaliseUserCode(undefined)).toBeNull();
    expect(normaliseUserCode(['BCDFGHJK'])).toBeNull();
  });

  it('normalise to a value that round-trips through its displayed form', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const code = normaliseUserCode(input);
        if (code === null) return;
        expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
        expect(normaliseUserCode(formatUserCode(code))).toBe(code);
      }),
    );
  });
});

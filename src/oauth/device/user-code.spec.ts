import fc from 'fast-check';
import { formatUserCode, generateUserCode, normaliseUserCode, USER_CODE_ALPHABET, USER_CODE_LENGTH } from './user-code';

const CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{8}$/;
const SHOWN = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;

/** A stored code: 8 letters of the alphabet. */
const storedCode = fc.array(fc.constantFrom(...USER_CODE_ALPHABET), { minLength: 8, maxLength: 8 }).map((letters) => letters.join(''));
/** What may stand between the two halves as typed, and around the code. */
const separator = fc.constantFrom('', '-', ' ', '  ', ' - ', '- ', ' -', '\t');
const around = fc.constantFrom('', ' ', '  ', '\t', '\n', '\u00a0');

/**
 * The shape the user may type, written out apart from the implementation: any case, spaces around, and
 * between the halves nothing, a hyphen, spaces, or a hyphen with spaces; ASCII letters of the alphabet only.
 */
const ACCEPTED = /^\s*([BCDFGHJKLMNPQRSTVWXZ]{4})(?:\s*-\s*|\s+)?([BCDFGHJKLMNPQRSTVWXZ]{4})\s*$/i;

describe('user codes (RFC 8628 §6.1)', () => {
  describe('generation', () => {
    it('are 8 letters of the consonant alphabet, shown XXXX-XXXX', () => {
      expect(USER_CODE_ALPHABET).toMatch(/^[A-Z]{20}$/);
      expect(USER_CODE_ALPHABET).not.toMatch(/[AEIOUY]/);
      expect(USER_CODE_LENGTH).toBe(8);
      for (let i = 0; i < 500; i++) {
        const code = generateUserCode();
        expect(code).toMatch(CODE);
        expect(formatUserCode(code)).toMatch(SHOWN);
        expect(normaliseUserCode(formatUserCode(code))).toBe(code);
      }
    });

    it('draw every letter equally often, at every position', () => {
      // Pearson's chi-squared over 20 letters (19 degrees of freedom): a fair draw exceeds 82 with a
      // probability of about 1e-9, so this does not flake; a biased one, such as a random byte modulo 20
      // (16 letters drawn 13/12 as often as the other 4), scores about 150 overall on 20,000 codes.
      const draws = 20_000;
      const perPosition = Array.from({ length: USER_CODE_LENGTH }, () => new Array<number>(USER_CODE_ALPHABET.length).fill(0));
      const overall = new Array<number>(USER_CODE_ALPHABET.length).fill(0);
      for (let i = 0; i < draws; i++) {
        [...generateUserCode()].forEach((letter, position) => {
          const index = USER_CODE_ALPHABET.indexOf(letter);
          perPosition[position][index]++;
          overall[index]++;
        });
      }
      expect(overall.every((count) => count > 0)).toBe(true);
      expect(chiSquared(overall)).toBeLessThan(82);
      for (const counts of perPosition) expect(chiSquared(counts)).toBeLessThan(82);
    });
  });

  describe('normalisation', () => {
    it('accepts any case, with or without the hyphen or a space between the halves, with spaces around', () => {
      fc.assert(
        fc.property(storedCode, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), separator, around, around, (code, lower, between, before, after) => {
          const cased = [...code].map((letter, i) => (lower[i] ? letter.toLowerCase() : letter)).join('');
          const typed = `${before}${cased.slice(0, 4)}${between}${cased.slice(4)}${after}`;
          expect(normaliseUserCode(typed)).toBe(code);
        }),
      );
    });

    it('turns the displayed form back into the stored one', () => {
      fc.assert(fc.property(storedCode, (code) => expect(normaliseUserCode(formatUserCode(code))).toBe(code)));
    });

    it('accepts exactly the documented shape, for any input', () => {
      const anyText = fc.oneof(
        fc.string(),
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: fc.constantFrom(...'BCDFGHJKbcdfghjkAEIOaeio0-  ſ\u017f\u212a'), maxLength: 12 }),
      );
      fc.assert(
        fc.property(anyText, (input) => {
          const match = input.length <= 64 ? ACCEPTED.exec(input) : null;
          expect(normaliseUserCode(input)).toBe(match ? (match[1] + match[2]).toUpperCase() : null);
        }),
        { numRuns: 2000 },
      );
    });

    it('refuses a code with one letter replaced by anything but a letter of the alphabet', () => {
      const other = fc.oneof(fc.string({ minLength: 1, maxLength: 1 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), fc.constantFrom('ſ', '\u212a', 'Ｂ', 'A', 'e', '0'));
      fc.assert(
        fc.property(storedCode, fc.nat(7), other, (code, position, replacement) => {
          // The same or another letter of the alphabet, in either case, is a code.
          fc.pre(!(USER_CODE_ALPHABET + USER_CODE_ALPHABET.toLowerCase()).includes(replacement));
          const typed = code.slice(0, position) + replacement + code.slice(position + 1);
          expect(normaliseUserCode(typed)).toBeNull();
        }),
        { numRuns: 2000 },
      );
    });

    it('refuses other shapes', () => {
      const refused = [
        'BCDFGHJ', // 7 letters
        'BCDFGHJKL', // 9 letters
        'ABCD-EFGH', // vowels
        'BCDF-GHJ1', // a digit
        'BCDF--GHJK', // two hyphens
        'BCD-FGHJK', // the hyphen elsewhere
        '-BCDFGHJK',
        'BCDFGHJK-',
        'BCDF_GHJK', // another separator
        'BCDF.GHJK',
        'ſCDFGHJK', // long s: upper-cases to S
        'BCDFGHJ\u212a', // Kelvin sign: lower-cases to k
        'ＢＣＤＦＧＨＪＫ', // full-width letters
        'BCDF-GHJK\u0000',
        '',
        '   ',
        `BCDF-GHJK${' '.repeat(60)}`, // longer than anyone types
      ];
      for (const bad of refused) expect([bad, normaliseUserCode(bad)]).toEqual([bad, null]);
      for (const notText of [undefined, null, 12345678, ['BCDFGHJK'], { code: 'BCDFGHJK' }]) expect(normaliseUserCode(notText)).toBeNull();
    });
  });
});

/** Pearson's statistic of counts against the uniform distribution. */
function chiSquared(counts: number[]): number {
  const expected = counts.reduce((sum, count) => sum + count, 0) / counts.length;
  return counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
}

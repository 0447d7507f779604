import fc from 'fast-check';
import { containsPattern, ftsPhrase, searchTerm } from './search-folding';

/** What SQL LIKE … ESCAPE '\' does with a pattern, for checking patterns without a database. */
function like(value: string, pattern: string): boolean {
  let regex = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') regex += escapeRegex(pattern[++i]);
    else if (c === '%') regex += '[\\s\\S]*';
    else if (c === '_') regex += '[\\s\\S]';
    else regex += escapeRegex(c);
  }
  return new RegExp(`^${regex}$`, 'u').test(value);
}
const escapeRegex = (c: string) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

describe('searchTerm', () => {
  it('folds the trimmed term, and searches three characters or more as a substring, shorter as a prefix', () => {
    expect(searchTerm(undefined)).toBeUndefined();
    expect(searchTerm('   ')).toBeUndefined();
    expect(searchTerm(' Çorlu ')).toEqual({ kind: 'substring', folded: 'corlu' });
    expect(searchTerm('TARIM')).toEqual({ kind: 'substring', folded: 'tarim' });
    expect(searchTerm('Ak')).toEqual({ kind: 'prefix', folded: 'ak' });
    expect(searchTerm('İ')).toEqual({ kind: 'prefix', folded: 'i' });
    // Counted in characters, not UTF-16 units: an emoji and a letter are two.
    expect(searchTerm('😀a')).toEqual({ kind: 'prefix', folded: '😀a' });
    expect(searchTerm('a b')).toEqual({ kind: 'substring', folded: 'a b' });
  });
});

describe('containsPattern', () => {
  it('escapes %, _ and the escape character', () => {
    expect(containsPattern('100%')).toBe('%100\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('a\\b')).toBe('%a\\\\b%');
  });

  it('matches exactly the keys that contain the term', () => {
    const alphabet = fc.constantFrom(...'abi%_\\ '.split(''));
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 8 }), fc.string({ unit: alphabet, maxLength: 3 }), (key, term) => {
        expect(like(key, containsPattern(term))).toBe(key.includes(term));
      }),
    );
  });
});

describe('ftsPhrase', () => {
  it('quotes the term as one FTS5 string, doubling quotes', () => {
    expect(ftsPhrase('kahve')).toBe('"kahve"');
    expect(ftsPhrase('say "hi"')).toBe('"say ""hi"""');
    expect(ftsPhrase('a AND b*')).toBe('"a AND b*"');
  });
});

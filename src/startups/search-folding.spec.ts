import fc from 'fast-check';
import { containsPattern, foldForSearch } from './search-folding';

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

describe('foldForSearch', () => {
  it.each([
    ['İSTANBUL', 'istanbul'],
    ['Istanbul', 'istanbul'],
    ['ıstanbul', 'istanbul'],
    ['ILIK', 'ilik'],
    ['Çınar Şahin Öğüt', 'çinar şahin öğüt'],
    ['I\u0307STANBUL', 'istanbul'], // İ written as I + combining dot above
  ])('folds %s to %s', (input, folded) => {
    expect(foldForSearch(input)).toBe(folded);
  });

  it('is idempotent and keeps the length of Turkish text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'aıiIİçÇğĞöÖşŞüÜ %_\\'.split('')) }), (s) => {
        expect(foldForSearch(foldForSearch(s))).toBe(foldForSearch(s));
        expect(foldForSearch(s)).toHaveLength(s.length);
      }),
    );
  });
});

describe('containsPattern', () => {
  it('escapes %, _ and the escape character', () => {
    expect(containsPattern('100%')).toBe('%100\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('a\\b')).toBe('%a\\\\b%');
  });

  it('matches exactly the names that contain the folded query', () => {
    const alphabet = fc.constantFrom(...'abIİı%_\\ '.split(''));
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 8 }), fc.string({ unit: alphabet, maxLength: 3 }), (name, q) => {
        expect(like(foldForSearch(name), containsPattern(q))).toBe(foldForSearch(name).includes(foldForSearch(q)));
      }),
    );
  });
});

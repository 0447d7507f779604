import fc from 'fast-check';
import { foldName, prefixRange } from './name-folding';

/** Byte order of UTF-8, which is code-point order: what SQLite's BINARY and PostgreSQL's "C" compare. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('foldName', () => {
  it.each([
    ['İSTANBUL', 'istanbul'],
    ['Istanbul', 'istanbul'],
    ['ıstanbul', 'istanbul'],
    ['ILIK', 'ilik'],
    ['Çınar Şahin Öğüt', 'cinar sahin ogut'],
    ['I\u0307STANBUL', 'istanbul'], // İ written as I + combining dot above
    ['Çorlu', 'corlu'],
    ['Café Crème', 'cafe creme'],
    ['Cafe\u0301', 'cafe'], // é written as e + combining acute
    ['AkılLink', 'akillink'],
    ['Ærø Søft', 'ærø søft'], // no decomposition: kept
    ['100% Organik', '100% organik'],
    // Lowercasing makes a word-final Σ a ς: both small sigmas fold to σ.
    ['ΟΔΟΣ', 'οδοσ'],
    ['ΟΔΟΣ Lojistik', 'οδοσ lojistik'],
    ['ΔΟΣΗ', 'δοση'],
    ['ΔΟΣ', 'δοσ'],
  ])('folds %s to %s', (input, folded) => {
    expect(foldName(input)).toBe(folded);
  });

  it('orders names as a person expects, in byte order', () => {
    const names = ['HR Tech', 'Healthtech', 'Corlu Gıda', 'Zeytin', 'Çorlu Lojistik', 'AkılLink', 'Akılkale', 'ızgara', 'Izmir', 'İstanbul'];
    const sorted = [...names].sort((a, b) => byteOrder(foldName(a), foldName(b)));
    expect(sorted).toEqual(['Akılkale', 'AkılLink', 'Corlu Gıda', 'Çorlu Lojistik', 'Healthtech', 'HR Tech', 'İstanbul', 'ızgara', 'Izmir', 'Zeytin']);
  });

  it('is idempotent and never lengthens a name, whatever the script', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (s) => {
        const folded = foldName(s);
        expect(foldName(folded)).toBe(folded);
        expect([...folded].length).toBeLessThanOrEqual([...s].length);
      }),
    );
  });

  it('ignores case, accents and which Turkish i was typed', () => {
    const letters = 'aAıiIİçÇcCğĞgGöÖoOşŞsSüÜuUéÉeEâÂ %_\\'.split('');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...letters) }), (s) => {
        const folded = foldName(s);
        expect(folded).toMatch(/^[a-z %_\\]*$/);
        expect(folded).toHaveLength(s.length);
        expect(foldName(s.toLocaleUpperCase('tr'))).toBe(folded);
        expect(foldName(s.toLocaleLowerCase('tr'))).toBe(folded);
        expect(foldName(s.toLowerCase())).toBe(folded);
      }),
    );
  });
});

describe('prefixRange', () => {
  it('bounds exactly the keys that start with the prefix, in byte order', () => {
    const unit = fc.constantFrom('a', 'b', 'z', 'ç', '\u{10ffff}', '\ud7ff', '\ue000', '\u{1f600}', ' ');
    fc.assert(
      fc.property(fc.string({ unit, minLength: 1, maxLength: 3 }), fc.string({ unit, maxLength: 5 }), (prefix, key) => {
        const { low, high } = prefixRange(prefix);
        const inRange = byteOrder(key, low) >= 0 && (high === undefined || byteOrder(key, high) < 0);
        expect(inRange).toBe(key.startsWith(prefix));
      }),
    );
  });

  it('raises the last code point, carrying over the last one there is', () => {
    expect(prefixRange('ab')).toEqual({ low: 'ab', high: 'ac' });
    expect(prefixRange('a\ud7ff')).toEqual({ low: 'a\ud7ff', high: 'a\ue000' });
    expect(prefixRange('a\u{10ffff}')).toEqual({ low: 'a\u{10ffff}', high: 'b' });
    expect(prefixRange('\u{10ffff}')).toEqual({ low: '\u{10ffff}' });
    expect(() => prefixRange('')).toThrow(RangeError);
  });
});

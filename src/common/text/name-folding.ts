/**
 * The one folding of names, for order and for search: industries and startups keep `sort_name =
 * foldName(name)` beside the name, lists are ordered by it (then by id), and a `q` is folded the same way
 * before it is looked for in it. The folded text compares byte by byte (SQLite's BINARY, PostgreSQL's
 * "C" collation), so both engines give the same order and the same matches whatever their locale.
 *
 * - Case: letters are lowercased, so `Healthtech` sorts before `HR Tech` and `KAHVE` finds "Kahve".
 * - Accents: every combining mark is dropped after canonical decomposition (NFD), so `Çorlu` sorts beside
 *   `Corlu` and `café` finds "Cafe". Letters that have no decomposition (ø, ł, ß, æ) stay as they are.
 * - Turkish has two i's: İ/i and I/ı. Plain `toLowerCase()` turns İ into "i̇" (i + combining dot) and
 *   leaves ı alone; Turkish lowercasing turns I into ı. A reader cannot be expected to type the exact one,
 *   so all four fold to a plain "i": `İSTANBUL`, `Istanbul` and `ıstanbul` all find "istanbul", and sort
 *   together.
 * - Greek has two small sigmas: lowercasing turns Σ into ς at the end of a word and σ elsewhere, so "ΟΔΟΣ"
 *   would be "οδος" and `ΟΔΟΣΗ` "οδοση". Both fold to σ: a search finds a name whatever its word breaks.
 *
 * The result is never longer (in code points) than the name, so it fits the name's column.
 */
export function foldName(value: string): string {
  return value.normalize('NFD').replace(COMBINING_MARKS, '').replace(/ı/g, 'i').toLowerCase().replace(/ς/g, 'σ').normalize('NFC');
}

const COMBINING_MARKS = /\p{M}/gu;

/**
 * The half-open range `[low, high)` of folded keys that start with `prefix` (already folded): in byte
 * order, which is code-point order in UTF-8, every key that starts with it is ≥ `prefix` and < the next
 * string of its length (its last code point raised by one, carrying over U+10FFFF). Serves a prefix search
 * from the sort key's B-tree on both engines. `high` is absent when nothing comes after the prefix.
 */
export function prefixRange(prefix: string): { low: string; high?: string } {
  if (prefix === '') throw new RangeError('The prefix must not be empty');
  const points = [...prefix].map((c) => c.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < 0x10ffff) {
      // Step over the surrogates, which are not text.
      points.push(last === 0xd7ff ? 0xe000 : last + 1);
      return { low: prefix, high: String.fromCodePoint(...points) };
    }
  }
  return { low: prefix };
}

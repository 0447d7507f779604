/**
 * The one folding of names for case-insensitive search, used both when a startup's `search_name` is
 * stored and when a `q` is searched, so the two always meet. SQLite's LIKE folds ASCII only and
 * PostgreSQL's LIKE folds nothing; comparing pre-folded text with a pre-folded pattern gives the same
 * answer on both, whatever the collation.
 *
 * Turkish has two i's: İ/i and I/ı. Plain `toLowerCase()` turns İ into "i̇" (i + combining dot) and
 * leaves ı alone; Turkish lowercasing turns I into ı. A searcher cannot be expected to type the exact
 * one, so all four fold to a plain "i": `İSTANBUL`, `Istanbul` and `ıstanbul` all find "istanbul".
 */
export function foldForSearch(value: string): string {
  return value.normalize('NFC').replace(/[İIı]/g, 'i').toLowerCase();
}

/** The escape character of the LIKE patterns built here (`LIKE … ESCAPE '\'`). */
export const LIKE_ESCAPE = '\\';

/**
 * A LIKE pattern matching names that contain `q` (folded), with `%`, `_` and the escape character in
 * `q` matched literally: `100%` finds "100% Organik" only, `a_b` does not find "axb".
 */
export function containsPattern(q: string): string {
  return `%${foldForSearch(q).replace(/[\\%_]/g, (c) => LIKE_ESCAPE + c)}%`;
}

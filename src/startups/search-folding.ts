import { foldName } from '../common/text/name-folding';

/**
 * What `q` looks for in a startup's `sort_name`: the folded term (see common/text/name-folding.ts), so
 * `KAHVE`, `kahvé` and `Kahve` find the same startups, on both engines.
 *
 * Terms of three characters or more are substrings, served by a trigram index (FTS5 on SQLite, pg_trgm
 * on PostgreSQL). A trigram index cannot answer a shorter term, and a one- or two-letter substring
 * matches much of any list anyway: such a term matches the names that start with it, from the sort
 * key's B-tree.
 *
 * One limit, on PostgreSQL only: pg_trgm builds its trigrams from letters and digits, so a term with
 * none (`---`, `%%%`) gives it nothing to look up and the search reads the whole GIN index. The answer
 * is still right; it is just not faster than a scan. SQLite's FTS5 trigrams take every character.
 */
export type SearchTerm = { kind: 'substring'; folded: string } | { kind: 'prefix'; folded: string };

/** The shortest term searched as a substring: a trigram. */
export const MIN_SUBSTRING_LENGTH = 3;

/** The term of a `q`, or undefined when it is empty after trimming (every startup matches). */
export function searchTerm(q: string | undefined): SearchTerm | undefined {
  const folded = foldName(q?.trim() ?? '');
  if (folded === '') return undefined;
  return [...folded].length >= MIN_SUBSTRING_LENGTH ? { kind: 'substring', folded } : { kind: 'prefix', folded };
}

/** The escape character of the LIKE patterns built here (`LIKE … ESCAPE '\'`). */
export const LIKE_ESCAPE = '\\';

/**
 * A LIKE pattern matching keys that contain `folded`, with `%`, `_` and the escape character matched
 * literally: `100%` finds "100% Organik" only, `a_b` does not find "axb".
 */
export function containsPattern(folded: string): string {
  return `%${folded.replace(/[\\%_]/g, (c) => LIKE_ESCAPE + c)}%`;
}

/**
 * An FTS5 query matching documents that contain `folded` as a substring: one quoted string (a phrase of
 * the term's trigrams, in a row), in which only `"` needs escaping, by doubling. Nothing in it is FTS5
 * syntax: `AND`, `*`, `:` and `^` are text.
 */
export function ftsPhrase(folded: string): string {
  return `"${folded.replace(/"/g, '""')}"`;
}

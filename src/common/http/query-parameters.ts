/** The query of a URL as single values plus the names that appear more than once (RFC 6749 §3.1). */
export interface QueryParameters {
  /** First value of each parameter; parameters sent without a value are treated as omitted (RFC 6749 §3.1). */
  values: Map<string, string>;
  repeated: Set<string>;
}

/**
 * Parses a raw query string. Fastify's own parser turns a repeated parameter into an array and loses
 * nothing, but it does not say which parameters were empty; reading the raw string keeps both facts.
 */
export function parseQueryParameters(rawQuery: string): QueryParameters {
  const values = new Map<string, string>();
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (seen.has(name)) repeated.add(name);
    seen.add(name);
    if (value !== '' && !values.has(name)) values.set(name, value);
  }
  return { values, repeated };
}

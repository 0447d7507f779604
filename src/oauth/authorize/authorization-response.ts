/**
 * The redirect back to the client (RFC 6749 §4.1.2 and §4.1.2.1): the parameters are added to the
 * query of the registered redirect URI, keeping any query it already has (RFC 6749 §3.1.2), with `iss`
 * last (RFC 9207 §2). Unset values are left out.
 */
export function authorizationResponseUrl(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  const added = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) added.append(name, value);
  }
  const extra = added.toString();
  // Appending to the raw query (instead of url.searchParams) keeps the registered part byte for byte.
  url.search = url.search.length > 1 ? `${url.search}&${extra}` : `?${extra}`;
  return url.toString();
}

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

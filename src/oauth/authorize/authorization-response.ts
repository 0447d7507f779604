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


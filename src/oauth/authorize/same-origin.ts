import type { FastifyRequest } from 'fastify';

/**
 * Whether a form post comes from a page of this server (OWASP CSRF cheat sheet: "verifying origin
 * with standard headers", Fetch Metadata). Browsers send `Sec-Fetch-Site` and `Origin` on every POST;
 * a post whose headers name another site is refused even before the CSRF token is checked. A client
 * that sends neither header (not a browser) still needs a valid CSRF token.
 */
export function isSameOriginPost(request: FastifyRequest, publicUrl: string): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const allowed = new Set([new URL(publicUrl).origin]);
  // The address the browser actually used (behind a proxy, as TRUST_PROXY reports it).
  if (request.host) allowed.add(`${request.protocol}://${request.host}`);
  return allowed.has(origin);
}

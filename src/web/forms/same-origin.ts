import type { FastifyRequest } from 'fastify';

/**
 * Whether a form post comes from a page of this server (OWASP CSRF cheat sheet: Fetch Metadata and
 * "verifying origin with standard headers"). `Sec-Fetch-Site`, when sent, must be `same-origin`; a
 * real `Origin`, when sent, must be this server's. `Origin: null` says nothing — browsers send it for
 * same-origin posts from a page with `Referrer-Policy: no-referrer`, as these pages have — and a client
 * that sends neither header is left to the CSRF token.
 */
export function isSameOriginPost(request: FastifyRequest, publicUrl: string): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return false;
  const origin = request.headers.origin;
  if (origin === undefined || origin === 'null') return true;
  const allowed = new Set([new URL(publicUrl).origin]);
  // The address the browser actually used (behind a proxy, as TRUST_PROXY reports it).
  if (request.host) allowed.add(`${request.protocol}://${request.host}`);
  return allowed.has(origin);
}

/**
 * Whether another site's page made the browser send this GET (a link, an image, a form): `Sec-Fetch-Site`
 * says so when sent. An address typed, bookmarked or opened from a QR code is `none`; a browser that sends
 * no such header is taken at its word.
 */
export function isFromAnotherSite(request: FastifyRequest): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  return fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none';
}

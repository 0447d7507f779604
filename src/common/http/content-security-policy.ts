/**
 * Content-Security-Policy per kind of response. JSON answers need nothing; the reference needs its own
 * scripts and the inline script of its OAuth redirect page. Every policy forbids framing
 * (clickjacking). The sign-in and consent pages set their own, stricter policy.
 */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const DOCS_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
].join('; ');

/** The policy for a request target (its path, with or without the query): the reference's under `/docs`. */
export function contentSecurityPolicyFor(url: string): string {
  if (!url.startsWith('/docs')) return API_POLICY;
  const next = url.charCodeAt(5);
  // `/docs`, `/docs/…` and `/docs?…`, not `/docsx`. NaN: the path ends there.
  return Number.isNaN(next) || next === 0x2f || next === 0x3f ? DOCS_POLICY : API_POLICY;
}

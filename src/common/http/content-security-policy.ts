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

/** `/docs`, `/docs/…` or `/docs?…`: the reference and its assets, not `/docsx`. */
const DOCS_TARGET = /^\/docs(?:[/?]|$)/;

/** The policy for a request target (its path, with or without the query): the reference's under `/docs`. */
export function contentSecurityPolicyFor(url: string): string {
  return DOCS_TARGET.test(url) ? DOCS_POLICY : API_POLICY;
}

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

export function contentSecurityPolicyFor(path: string): string {
  return path === '/docs' || path.startsWith('/docs/') ? DOCS_POLICY : API_POLICY;
}

/**
 * The host rule of redirect URIs (docs/integrate-with-oauth.md), shared by client registration
 * (src/clients/client-rules.ts) and the pages' Content-Security-Policy (src/web/page.ts).
 */

// RFC 1123 §2.1 host names: labels of letters, digits and hyphens, not starting or ending with a hyphen;
// an internationalised name only in its ASCII (`xn--`) form (RFC 5890 §2.3.2.1).
const DNS_NAME = /^(?!-)[a-z0-9-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/i;
const IPV4_OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${IPV4_OCTET}(?:\\.${IPV4_OCTET}){3}$`);
// The WHATWG parser has already checked the address itself; this only keeps the brackets' content to hex digits, colons and dots.
const IPV6 = /^\[[0-9a-f:.]+\]$/i;

/** Whether a URL's host (as the WHATWG parser gives `hostname`) is a DNS name, an IPv4 literal or a bracketed IPv6 literal. */
export function isRedirectHost(hostname: string): boolean {
  if (IPV6.test(hostname) || IPV4.test(hostname)) return true;
  return hostname.length <= 253 && DNS_NAME.test(hostname);
}

/**
 * The origin of a redirect URI, as it may appear in a Content-Security-Policy source list: an http(s)
 * origin whose host passes the redirect-URI host rule. Undefined otherwise, e.g. for a URI stored before
 * the registration rules refused `;` and `,`: such a host (`https://app.example;script-src`) would otherwise
 * write its own directives into the header.
 */
export function policyOrigin(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  return isRedirectHost(url.hostname) ? url.origin : undefined;
}

/** Where a sign-in asked for by an account page returns when it names no valid page. */
export const DEFAULT_RETURN_PATH = '/account';

const ORIGIN = 'http://return-path.invalid';

/**
 * The page to return to after a sign-in, as a path of this site: only the pages that ask for a sign-in
 * (`/account` and below, and the device flow's `/device/consent`), never another host (`//evil.example`, `/\evil.example`, `https://…`), so the
 * sign-in page cannot be used as an open redirector (RFC 9700 §4.11). Anything else returns to
 * DEFAULT_RETURN_PATH.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 512) return DEFAULT_RETURN_PATH;
  // Browsers read a backslash as a slash and drop tabs and newlines: `/\x` and `/\t/x` mean `//x`.
  if (!value.startsWith('/') || hasUnsafeCharacter(value)) return DEFAULT_RETURN_PATH;
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return DEFAULT_RETURN_PATH;
  }
  if (url.origin !== ORIGIN) return DEFAULT_RETURN_PATH;
  // The device flow's consent page (RFC 8628 §3.3) signs in through the same page.
  const allowed = url.pathname === '/account' || url.pathname.startsWith('/account/') || url.pathname === '/device/consent';
  if (!allowed) return DEFAULT_RETURN_PATH;
  return `${url.pathname}${url.search}`;
}

/** A backslash, a space, or a control character (C0 or DEL). */
function hasUnsafeCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

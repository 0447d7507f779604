import unhomoglyph from 'unhomoglyph';
import { isKnownScope, KNOWN_SCOPES, parseRequestedScope } from '../common/scopes';
import type { ClientRule } from '../common/client-rule';
import { isRedirectHost } from '../common/http/redirect-hosts';

export { policyOrigin } from '../common/http/redirect-hosts';

export type { ClientRule };

/** A client registration that breaks one of the rules below; the message names the offending value. */
export class ClientValidationError extends Error {
  constructor(
    message: string,
    readonly rule?: ClientRule,
    /** For `redirect_uri_not_canonical`: the form to write instead. */
    readonly canonical?: string,
  ) {
    super(message);
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** RFC 8252 §7.3: loopback IP literals, on which the port of a redirect URI may vary (never `localhost`, §8.3). */
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);
const MAX_REDIRECT_URI_LENGTH = 2000;
export const MAX_CLIENT_NAME_LENGTH = 200;
/** Redirect URIs one application may register (portal and RFC 7591): enough for its environments, no more. */
export const MAX_REDIRECT_URIS = 10;

/**
 * Characters no application name may hold (SECURITY.md, "Look-alike and reordered application names"):
 * control characters (Cc, C0 and C1) and every Unicode format character (Cf): the bidirectional
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the marks U+200E/U+200F/U+061C,
 * zero-width characters (U+200B–U+200D, U+2060, U+FEFF), the soft hyphen U+00AD, tag characters.
 * They are invisible, or reorder the text around them (Unicode UAX #9), so a name holding one could
 * read on the consent page as something it is not.
 */
const NAME_FORBIDDEN = /\p{Cc}|\p{Cf}/u;

/** `U+202E`: how a message names a character that cannot be shown as itself. */
function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The rules a registered redirect URI must follow (SECURITY.md, "Malformed redirect URIs"). It is later
 * compared by exact string equality (RFC 9700 §4.1.3), so it is stored exactly as given, and must
 * already be in the form the WHATWG URL parser gives it (`new URL(uri).href === uri`): a form the parser
 * would rewrite (an upper-case host, a default port, `https://app.example` for `https://app.example/`)
 * is refused with a message naming the form to write, rather than stored as something the user did not
 * type and their application does not send.
 * - printable ASCII only: no spaces or control characters; an internationalised host in its `xn--` form;
 * - none of `*` (no wildcards, RFC 9700 §4.1.3), `;` and `,` (they separate sources and directives in
 *   the Content-Security-Policy the sign-in and consent pages send) and `\` (read as `/` by browsers);
 * - absolute `https:` URL (RFC 9700 §4.1.1: the code must not travel in clear text), written with `//`;
 * - `http:` only on a loopback host (RFC 8252 §7.3), or on this server's own origin when PUBLIC_URL is
 *   itself plain http (a development machine: the API reference's own redirect page lives there);
 * - no fragment (RFC 6749 §3.1.2), no user name or password in the URL;
 * - a host that is a DNS name, an IPv4 literal or a bracketed IPv6 literal.
 */
export function assertValidRedirectUri(uri: string, publicUrl: string): void {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) throw new ClientValidationError(`Invalid redirect URI: longer than ${MAX_REDIRECT_URI_LENGTH} characters`, 'redirect_uri_too_long');
  const unprintable = /[^\x21-\x7e]/u.exec(uri);
  if (unprintable) {
    throw new ClientValidationError(
      `Invalid redirect URI "${shown(uri)}": ${codePoint(unprintable[0])} is not allowed; use printable ASCII only (no spaces or control characters; an international host name in its xn-- form, other characters percent-encoded)`,
      'redirect_uri_characters',
    );
  }
  const forbidden = /[*;,\\]/.exec(uri);
  if (forbidden) throw new ClientValidationError(`Invalid redirect URI "${uri}": must not contain "${forbidden[0]}" (none of * ; , \\)`, 'redirect_uri_forbidden_character');
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new ClientValidationError(`Invalid redirect URI "${uri}": not an absolute URL`, 'redirect_uri_not_absolute');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ClientValidationError(`Invalid redirect URI "${uri}": the scheme must be https (or http for localhost)`, 'redirect_uri_scheme');
  }
  // `https:app.example` parses as `https://app.example/`: refused so that the registered string is the one sent.
  if (!/^https?:\/\//i.test(uri)) throw new ClientValidationError(`Invalid redirect URI "${uri}": write // after the scheme (${url.protocol}//host/path)`, 'redirect_uri_slashes');
  if (uri.includes('#')) throw new ClientValidationError(`Invalid redirect URI "${uri}": must not contain a fragment`, 'redirect_uri_fragment');
  if (url.username || url.password || /^https?:\/\/[^/?]*@/i.test(uri)) throw new ClientValidationError(`Invalid redirect URI "${uri}": must not contain credentials`, 'redirect_uri_credentials');
  if (!isRedirectHost(url.hostname)) {
    throw new ClientValidationError(
      `Invalid redirect URI "${uri}": the host must be a DNS name (letters, digits, hyphens and dots; an international name in its xn-- form), an IPv4 address or an IPv6 address in brackets`,
      'redirect_uri_host',
    );
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname) && !(publicUrl.startsWith('http://') && url.origin === new URL(publicUrl).origin)) {
    throw new ClientValidationError(`Invalid redirect URI "${uri}": http is allowed only for localhost, 127.0.0.1 and [::1]; use https`, 'redirect_uri_http');
  }
  if (url.href !== uri) {
    throw new ClientValidationError(`Invalid redirect URI "${uri}": write it as ${url.href} (it is compared exactly, in the form a URL parser gives it)`, 'redirect_uri_not_canonical', url.href);
  }
}

/**
 * The rules of an application's page or logo address (RFC 7591 §2 `client_uri`, `logo_uri`): at most
 * 2000 printable ASCII characters, an absolute `https` URL (or `http` on a loopback host, as for redirect
 * URIs), no user name or password, a host that is a DNS name or an IP literal. Such an address is only
 * kept and given back to the client: no page shows it or fetches it.
 */
export function assertValidClientPageUri(uri: string, field: 'client_uri' | 'logo_uri'): void {
  const refuse = (why: string) => new ClientValidationError(`Invalid ${field} "${shown(uri).slice(0, 200)}": ${why}`, 'client_page_uri');
  if (uri.length > MAX_REDIRECT_URI_LENGTH) throw refuse(`longer than ${MAX_REDIRECT_URI_LENGTH} characters`);
  if (/[^\x21-\x7e]/u.test(uri)) throw refuse('use printable ASCII only (an international host name in its xn-- form, other characters percent-encoded)');
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw refuse('not an absolute URL');
  }
  if (!/^https?:\/\//i.test(uri) || !(url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)))) {
    throw refuse('must be an https URL (http only on localhost, 127.0.0.1 and [::1])');
  }
  if (url.username || url.password || /^https?:\/\/[^/?]*@/i.test(uri)) throw refuse('must not contain credentials');
  if (!isRedirectHost(url.hostname)) throw refuse('the host must be a DNS name, an IPv4 address or an IPv6 address in brackets');
}

/** Whether `uri` passes assertValidRedirectUri. */
export function isValidRedirectUri(uri: string, publicUrl: string): boolean {
  try {
    assertValidRedirectUri(uri, publicUrl);
    return true;
  } catch (error) {
    if (error instanceof ClientValidationError) return false;
    throw error;
  }
}

/**
 * Whether the redirect URI of an authorization request is one of the client's registered ones: the
 * same string (RFC 9700 §4.1.3), or, for a registered `http` URI on a loopback IP literal, the same URI
 * with any port (RFC 8252 §7.3: a native app listens on a port the operating system gives it at the
 * time of the request). `localhost` gets no such latitude (RFC 8252 §8.3: it may resolve elsewhere).
 */
export function matchesRegisteredRedirectUri(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const withoutPort = loopbackWithoutPort(requested);
  return withoutPort !== undefined && registered.some((uri) => loopbackWithoutPort(uri) === withoutPort);
}

/** A loopback-IP http URI with its port removed; undefined for any other URI, or one the parser would rewrite. */
function loopbackWithoutPort(uri: string): string | undefined {
  if (!uri.startsWith('http://127.0.0.1') && !uri.startsWith('http://[::1]')) return undefined;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  // Only a string that is already in the parser's form is compared, so nothing but the port may differ.
  // The parser drops http's default port, so `:80` spelled out is the one rewrite allowed: any port
  // includes port 80 (RFC 8252 §7.3).
  const origin = `http://${url.hostname}`;
  const spelled = url.port === '' && uri.startsWith(`${origin}:80/`) ? origin + uri.slice(origin.length + 3) : uri;
  if (url.href !== spelled || uri.includes('#') || url.username || url.password || !LOOPBACK_IPS.has(url.hostname)) return undefined;
  url.port = '';
  return url.href;
}

/** The scopes a client may request: a non-empty subset of the known scopes, sorted and without repeats. */
export function parseClientScopes(value: string): string[] {
  // offline_access names nothing a client is registered for (src/common/scopes.ts): every grant has it.
  const scopes = parseRequestedScope(value.replace(/[\s,]+/g, ' '));
  if (scopes.length === 0) throw new ClientValidationError(`Invalid scopes: give at least one of ${KNOWN_SCOPES.join(', ')}`, 'scope_missing');
  const unknown = scopes.filter((s) => !isKnownScope(s));
  if (unknown.length > 0) throw new ClientValidationError(`Invalid scopes: unknown scope "${unknown[0]}" (known: ${KNOWN_SCOPES.join(', ')})`, 'scope_unknown');
  return scopes;
}

/**
 * An application name as pages show it (SECURITY.md, "Look-alike and reordered application names"):
 * 1 to 200 characters once trimmed, no control or format character anywhere in what was given, not
 * confusable with the platform's own name, and no word mixing scripts. Returns the trimmed name.
 */
export function assertValidClientName(name: string, platformName: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_CLIENT_NAME_LENGTH) throw new ClientValidationError(`Invalid name: 1 to ${MAX_CLIENT_NAME_LENGTH} characters`, 'name_length');
  const forbidden = NAME_FORBIDDEN.exec(name);
  if (forbidden) {
    throw new ClientValidationError(
      `Invalid name: ${codePoint(forbidden[0])} is a control or invisible formatting character (no control characters, direction overrides or isolates, zero-width characters)`,
      'name_characters',
    );
  }
  if (confusable(trimmed, platformName)) {
    throw new ClientValidationError(`Invalid name: "${trimmed}" looks like the platform's own name "${platformName}"; choose a name of your own`, 'name_lookalike');
  }
  const mixed = mixedScriptWord(trimmed);
  if (mixed) {
    throw new ClientValidationError(
      `Invalid name: the word "${mixed.word}" mixes ${mixed.scripts.join(' and ')} letters (a look-alike of another name); write each word in one script`,
      'name_mixed_scripts',
    );
  }
  return trimmed;
}

/** Characters that show as a blank without being spaces: Braille's blank pattern and the Hangul fillers. */
const BLANKS = /[\u2800\u115F\u1160\u3164\uFFA0]/gu;
/** UTS #39 §4 removes default ignorable code points (variation selectors, the grapheme joiner…) before mapping. */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The UTS #39 §4 confusable skeleton, `NFD(map(NFD(x)))` with the confusables table of `unhomoglyph`,
 * after NFKC (full-width and compatibility forms are what they look like), without default ignorable
 * code points, and with blanks and runs of spaces read as one space, as a page shows them.
 */
export function skeleton(text: string): string {
  const folded = text.normalize('NFKC').replace(BLANKS, ' ').replace(IGNORABLE, '').replace(/\s+/gu, ' ').trim();
  return unhomoglyph(folded.normalize('NFD')).normalize('NFD');
}

/**
 * Whether two names look alike, case ignored: the skeletons of the name as written, in lower case and
 * in upper case (also as Turkish writes them) are compared with those of the other, lower-cased (UTS #39 maps `I` and `l` alike only
 * before case is folded, `rn` and `m` only after).
 */
export function confusable(a: string, b: string): boolean {
  // Turkish folds İ/i and I/ı apart from every other language, so its case forms are compared too.
  const forms = (text: string) =>
    new Set([text, text.toLowerCase(), text.toUpperCase(), text.toLocaleLowerCase('tr'), text.toLocaleUpperCase('tr')].map((form) => skeleton(form).toLowerCase()));
  const theirs = forms(b);
  return [...forms(a)].some((form) => theirs.has(form));
}

/**
 * The scripts a name's letters are told apart by (Unicode Script property). Characters of Script Common
 * or Inherited (digits, punctuation, combining marks) belong to every script and count for none; a
 * letter of a script not listed counts as "another script", so it is not mixed with Latin unseen.
 */
const SCRIPTS = [
  'Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Nko', 'Devanagari', 'Bengali', 'Gurmukhi',
  'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar', 'Georgian',
  'Hangul', 'Ethiopic', 'Cherokee', 'Canadian_Aboriginal', 'Ogham', 'Runic', 'Khmer', 'Mongolian', 'Hiragana', 'Katakana',
  'Bopomofo', 'Han', 'Yi', 'Coptic', 'Tifinagh', 'Vai', 'Javanese', 'Balinese', 'Glagolitic', 'Gothic', 'Deseret', 'Osage', 'Lisu',
].map((script) => ({ script, test: new RegExp(`^\\p{Script=${script}}$`, 'u') }));
const NO_SCRIPT = /^[\p{Script=Common}\p{Script=Inherited}]$/u;
/**
 * Scripts that are written together within one word (UTS #39 §5.2, "Highly Restrictive"): Japanese
 * (Han, Hiragana, Katakana), Chinese with Bopomofo, Korean (Han, Hangul), each with Latin.
 */
const WRITTEN_TOGETHER = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

function scriptOf(char: string): string | null {
  if (NO_SCRIPT.test(char)) return null;
  return SCRIPTS.find(({ test }) => test.test(char))?.script ?? 'another script';
}

/** The first word (letters, marks and digits between other characters) whose letters come from scripts not written together. */
export function mixedScriptWord(name: string): { word: string; scripts: string[] } | null {
  for (const word of name.normalize('NFKC').split(/[^\p{L}\p{M}\p{N}]+/u)) {
    const scripts = new Set<string>();
    for (const char of word) {
      const script = scriptOf(char);
      if (script) scripts.add(script);
    }
    if (scripts.size <= 1) continue;
    if (WRITTEN_TOGETHER.some((together) => [...scripts].every((script) => together.has(script)))) continue;
    return { word, scripts: [...scripts] };
  }
  return null;
}

/** A value for a message: control characters shown as `?`, so a refused value cannot reach a terminal raw. */
function shown(value: string): string {
  return value.replace(/\p{Cc}|\p{Cf}/gu, '?');
}

import { Language } from './i18n/language';

/**
 * Every scope this server knows (docs/integrate-with-oauth.md, discovery `scopes_supported`), with the plain words the
 * consent page shows for it in each language; `{platform}` stands for the platform's name (PLATFORM_NAME).
 */
export const SCOPE_DESCRIPTIONS = {
  openid: {
    tr: 'Sizi {platform} hesabınızla tanıma (oturum açma)',
    en: 'Sign you in with your {platform} account',
  },
  profile: {
    tr: 'Adınızı ve e-posta adresinizi görme',
    en: 'See your name and email address',
  },
  email: {
    tr: 'E-posta adresinizi ve doğrulanıp doğrulanmadığını görme',
    en: 'See your email address and whether it is verified',
  },
  'read:startups': {
    tr: 'Girişim verilerini okuma',
    en: 'Read startup data',
  },
} as const satisfies Record<string, Record<Language, string>>;

export type Scope = keyof typeof SCOPE_DESCRIPTIONS;
export const KNOWN_SCOPES = Object.keys(SCOPE_DESCRIPTIONS) as Scope[];

/**
 * Scopes that describe a user (OpenID Connect Core §5.4 and `openid` itself): only a grant a user gave
 * can hold them, so the client-credentials grant, which acts for the client alone, never does (docs/integrate-with-oauth.md).
 */
export const USER_SCOPES: readonly string[] = ['openid', 'profile', 'email'];

export function isUserScope(scope: string): boolean {
  return USER_SCOPES.includes(scope);
}

export function isKnownScope(value: string): value is Scope {
  return Object.prototype.hasOwnProperty.call(SCOPE_DESCRIPTIONS, value);
}

/**
 * RFC 6749 §3.3: `scope` is a list of space-delimited, case-sensitive strings. Repeated entries are
 * folded; the result is sorted so that one scope set has one spelling (consents are stored that way).
 */
export function parseScope(value: string): string[] {
  return [...new Set(value.split(' ').filter((s) => s !== ''))].sort();
}

/**
 * `offline_access` (OpenID Connect Core §11), which agents ask for when discovery lists it: here it asks
 * for nothing a grant lacks, since every grant a user gives comes with a refresh token (rotated at each
 * use, public clients included). So it is listed in `scopes_supported`, accepted in any request, and
 * dropped from what is granted (RFC 6749 §3.3: the token response says the scope granted).
 */
export const OFFLINE_ACCESS = 'offline_access';

/** A requested scope (parseScope) without `offline_access`, which every user's grant holds already. */
export function parseRequestedScope(value: string): string[] {
  return parseScope(value).filter((scope) => scope !== OFFLINE_ACCESS);
}

/** The stored and wire form of a scope set: sorted, space-separated. */
export function formatScope(scopes: readonly string[]): string {
  return [...new Set(scopes)].sort().join(' ');
}

/**
 * The order in which every page lists a scope set for people to read (consent, connected apps, the
 * developer portal): the order of SCOPE_DESCRIPTIONS (signing in first, then what is read about the
 * user, then the platform's data), an unknown scope last. The wire and stored form stays sorted
 * (formatScope).
 */
export function inDisplayOrder(scopes: readonly string[]): string[] {
  const rank = (scope: string) => (isKnownScope(scope) ? KNOWN_SCOPES.indexOf(scope) : KNOWN_SCOPES.length);
  return [...scopes].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Whether every scope of `requested` is in `allowed`. */
export function isSubset(requested: readonly string[], allowed: readonly string[]): boolean {
  const set = new Set(allowed);
  return requested.every((s) => set.has(s));
}

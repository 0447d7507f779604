export const LANGUAGES = ['tr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'tr';

/**
 * Picks `tr` or `en` from an Accept-Language header (RFC 9110 §12.5.4), honouring q-values and
 * language ranges such as `en-GB`. Anything unknown falls back to Turkish.
 */
export function negotiateLanguage(header: string | string[] | undefined): Language {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return DEFAULT_LANGUAGE;
  let best: Language = DEFAULT_LANGUAGE;
  let bestQ = 0;
  for (const part of value.split(',').slice(0, 20)) {
    const [rangeRaw, ...params] = part.trim().split(';');
    const range = rangeRaw.trim().toLowerCase();
    let q = 1;
    for (const param of params) {
      const [key, val] = param.trim().split('=');
      if (key === 'q') q = Number.parseFloat(val);
    }
    if (!Number.isFinite(q) || q <= 0) continue;
    const primary = range.split('-')[0];
    const language = (LANGUAGES as readonly string[]).includes(primary) ? (primary as Language) : range === '*' ? DEFAULT_LANGUAGE : undefined;
    if (language && q > bestQ) {
      best = language;
      bestQ = q;
    }
  }
  return best;
}

/**
 * The language of a request: the one rule every page, error and envelope follows. Today it is the
 * Accept-Language header alone (negotiateLanguage); a language chosen by cookie or query would be read
 * here first, so that every part of the service agrees.
 */
export function requestLanguage(request: { headers: Record<string, string | string[] | undefined> }): Language {
  return negotiateLanguage(request.headers['accept-language']);
}

import { KNOWN_SCOPES, SCOPE_DESCRIPTIONS } from '../../common/scopes';

/** The scopes of the reference's "Authorize" dialog, in the consent page's English words: one table for both. */
export function referenceScopes(): Record<string, string> {
  return Object.fromEntries(KNOWN_SCOPES.map((scope) => [scope, `${SCOPE_DESCRIPTIONS[scope].en}.`]));
}

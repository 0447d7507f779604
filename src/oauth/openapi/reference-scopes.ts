import { ConfigType } from '@nestjs/config';
import { KNOWN_SCOPES, SCOPE_DESCRIPTIONS } from '../../common/scopes';
import { appConfig } from '../../config/configuration';

/** The scopes of the reference's "Authorize" dialog, in the consent page's English words: one table for both. */
export function referenceScopes(app: ConfigType<typeof appConfig>): Record<string, string> {
  return Object.fromEntries(KNOWN_SCOPES.map((scope) => [scope, `${SCOPE_DESCRIPTIONS[scope].en.replaceAll('{platform}', app.platformName)}.`]));
}

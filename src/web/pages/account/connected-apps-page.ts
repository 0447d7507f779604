import { isKnownScope, SCOPE_DESCRIPTIONS } from '../../../common/scopes';
import { Language } from '../../../common/i18n/language';
import { Page } from '../../page';
import { sentenceWithName } from '../../text';
import { AccountPageContext, accountPage, instant } from './account-layout';
import { ACCOUNT_MESSAGES } from './account-messages';

/** An application the user granted, as the page lists it. */
export interface ConnectedAppView {
  clientId: string;
  name: string;
  scopes: string[];
  firstGrantedAt: number;
  lastUsedAt: number | null;
}

/**
 * `GET /account/apps` (README.md, Your account): each application the user granted, its scopes in the consent page's
 * plain words, when access was given and last used, and a **Revoke access** form.
 */
export function connectedAppsPage(ctx: AccountPageContext, input: { apps: ConnectedAppView[]; revoked?: string }): Page {
  const t = ACCOUNT_MESSAGES[ctx.language];
  const apps = input.apps.map((app) => ({
    name: app.name,
    clientId: app.clientId,
    scopes: app.scopes.map((scope) => ({ words: scopeWords(scope, ctx.language), name: scope })),
    firstGrantedAt: instant(app.firstGrantedAt, ctx.language),
    lastUsedAt: app.lastUsedAt === null ? null : instant(app.lastUsedAt, ctx.language),
    revokeLabel: t.revokeAccessOf(app.name),
  }));
  const revoked = input.revoked ? sentenceWithName(t.revoked, input.revoked) : undefined;
  return accountPage(ctx, { section: 'apps', title: t.appsTitle, view: 'account/apps', data: { t, apps, revoked } });
}

/** The consent page's words for a scope (docs/integrate-with-oauth.md); an unknown one by its name. */
function scopeWords(scope: string, language: Language): string {
  return isKnownScope(scope) ? SCOPE_DESCRIPTIONS[scope][language] : scope;
}

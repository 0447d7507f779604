import { isKnownScope, SCOPE_DESCRIPTIONS } from '../../auth/scopes';
import { Language } from '../../common/i18n/language';
import { escapeHtml, isolatedName, Page, sentenceWithName } from '../../web/page';
import { ConnectedApp } from '../apps/connected-apps.service';
import { AccountPageContext, accountPage, csrfInput, timeElement } from './account-layout';
import { ACCOUNT_MESSAGES } from './account-messages';

/**
 * `GET /account/apps` (README.md, Your account): each application the user granted, its scopes in the consent page's
 * plain words, when access was given and last used, and a **Revoke access** form.
 */
export function connectedAppsPage(ctx: AccountPageContext, input: { apps: ConnectedApp[]; revoked?: string }): Page {
  const t = ACCOUNT_MESSAGES[ctx.language];
  const notice = input.revoked ? `<p class="notice" role="status">${sentenceWithName(t.revoked, input.revoked)}</p>\n` : '';
  const list =
    input.apps.length === 0
      ? `<p>${escapeHtml(t.noApps)}</p>`
      : `<ul class="cards">\n${input.apps.map((app, i) => appCard(ctx, app, i)).join('\n')}\n</ul>`;
  const body = `${notice}<p class="muted">${escapeHtml(t.appsIntro)}</p>\n${list}`;
  return accountPage(ctx, { section: 'apps', title: t.appsTitle, body });
}

function appCard(ctx: AccountPageContext, app: ConnectedApp, index: number): string {
  const t = ACCOUNT_MESSAGES[ctx.language];
  const id = `app-${index}`;
  const scopes = app.scopes.map((scope) => `<li>${escapeHtml(scopeWords(scope, ctx.language))} <span class="muted">(${escapeHtml(scope)})</span></li>`).join('');
  const lastUsed = app.lastUsedAt === null ? escapeHtml(t.neverUsed) : timeElement(app.lastUsedAt, ctx.language);
  return `<li class="card">
<h2 id="${id}">${isolatedName(app.name)}</h2>
<p class="muted">${escapeHtml(app.clientId)}</p>
<p id="${id}-scopes">${escapeHtml(t.allowedTo)}</p>
<ul class="scopes" aria-labelledby="${id}-scopes">${scopes}</ul>
<dl class="facts">
<dt>${escapeHtml(t.firstGranted)}</dt><dd>${timeElement(app.firstGrantedAt, ctx.language)}</dd>
<dt>${escapeHtml(t.lastUsed)}</dt><dd>${lastUsed}</dd>
</dl>
<form method="post" action="/account/apps/revoke">
${csrfInput(ctx.csrfToken)}
<input type="hidden" name="client_id" value="${escapeHtml(app.clientId)}">
<button type="submit" class="danger" aria-label="${escapeHtml(t.revokeAccessOf(app.name))}">${escapeHtml(t.revokeAccess)}</button>
</form>
</li>`;
}

/** The consent page's words for a scope (docs/integrate-with-oauth.md); an unknown one by its name. */
function scopeWords(scope: string, language: Language): string {
  return isKnownScope(scope) ? SCOPE_DESCRIPTIONS[scope][language] : scope;
}

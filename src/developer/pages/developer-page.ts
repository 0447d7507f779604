import { AccountPageContext, accountPage, csrfInput, timeElement } from '../../account/pages/account-layout';
import { ApiKey } from '../../api-keys/api-key.entity';
import { KNOWN_SCOPES, SCOPE_DESCRIPTIONS, inDisplayOrder, isKnownScope } from '../../auth/scopes';
import { Client } from '../../clients/client.entity';
import { Language } from '../../common/i18n/language';
import { escapeHtml, isolatedName, Page } from '../../web/page';
import { DEVELOPER_MESSAGES, DoneNotice } from './developer-messages';

/** What was just made and is shown this once (README.md, Register your application: `data-credential` elements). */
export type Shown =
  | { kind: 'client'; client: Client; secret?: string; rotated: boolean }
  | { kind: 'api_key'; apiKey: ApiKey; key: string };

/** The values a refused form is shown again with, so the user corrects rather than retypes. */
export interface RegisterValues {
  name: string;
  redirectUris: string;
  type: string;
  scopes: string[];
  /** The `device_flow` checkbox: may use the Device Authorization Grant (RFC 8628). */
  deviceFlow?: boolean;
}

/** Why the last form changed nothing, next to that form. */
export type Problem =
  | { form: 'register'; message: string; values: RegisterValues }
  | { form: 'edit'; clientId: string; message: string; values: { name: string; redirectUris: string } }
  | { form: 'api_key'; message: string; values: { name: string } }
  /** A button without fields of its own (e.g. rotating the secret of a public application). */
  | { form: 'page'; message: string };

/** A form that may be refused, before the reason is known. */
export type RefusableForm = Problem extends infer P ? (P extends Problem ? Omit<P, 'message'> : never) : never;

export interface DeveloperPageInput {
  applications: Client[];
  apiKeys: ApiKey[];
  maxClients: number;
  maxApiKeys: number;
  shown?: Shown;
  done?: DoneNotice;
  problem?: Problem;
  status?: number;
}

export const DEVELOPER_PATH = '/account/developer';

/**
 * `GET /account/developer` (README.md, Register your application): the user's applications (each with edit, rotate secret and
 * delete), the registration form, and the API keys with their own form. Plain forms, so it works with
 * JavaScript off; a secret appears only in the answer to the POST that made it.
 */
export function developerPage(ctx: AccountPageContext, input: DeveloperPageInput): Page {
  const t = DEVELOPER_MESSAGES[ctx.language];
  const parts = [`<p class="muted">${escapeHtml(t.intro)}</p>`];
  if (input.problem?.form === 'page') parts.push(alert('page-problem', t.refused, input.problem.message));
  if (input.done) parts.push(`<p class="notice" role="status">${escapeHtml(t.done[input.done])}</p>`);
  if (input.shown) parts.push(shownPanel(ctx.language, input.shown));
  parts.push(applicationsSection(ctx, input), registerSection(ctx, input), apiKeysSection(ctx, input));
  return accountPage(ctx, { section: 'developer', title: t.title, body: parts.join('\n'), status: input.status });
}

function shownPanel(language: Language, shown: Shown): string {
  const t = DEVELOPER_MESSAGES[language];
  if (shown.kind === 'api_key') {
    return `<section class="notice" aria-labelledby="shown-title">
<h2 id="shown-title">${escapeHtml(t.newKeyTitle)}</h2>
<dl class="facts"><dt>${escapeHtml(t.keyName)}</dt><dd>${escapeHtml(shown.apiKey.name)}</dd>
<dt>${escapeHtml(t.apiKey)}</dt><dd><code data-credential="api_key">${escapeHtml(shown.key)}</code></dd></dl>
<p><strong>${escapeHtml(t.copyNow)}</strong></p>
</section>`;
  }
  const secret = shown.secret
    ? `<dt>${escapeHtml(t.clientSecret)}</dt><dd><code data-credential="client_secret">${escapeHtml(shown.secret)}</code></dd>`
    : '';
  const advice = shown.secret ? t.copyNow : t.publicNoSecret;
  return `<section class="notice" aria-labelledby="shown-title">
<h2 id="shown-title">${escapeHtml(shown.rotated ? t.newSecretTitle : t.credentialsTitle)}: ${isolatedName(shown.client.name)}</h2>
<dl class="facts"><dt>${escapeHtml(t.clientId)}</dt><dd><code data-credential="client_id">${escapeHtml(shown.client.clientId)}</code></dd>
${secret}</dl>
<p><strong>${escapeHtml(advice)}</strong></p>
</section>`;
}

function applicationsSection(ctx: AccountPageContext, input: DeveloperPageInput): string {
  const t = DEVELOPER_MESSAGES[ctx.language];
  const count = input.applications.length;
  const summary = `<p class="muted">${escapeHtml(count >= input.maxClients ? t.atLimit(input.maxClients) : t.count(count, input.maxClients))}</p>`;
  const list =
    count === 0
      ? `<p>${escapeHtml(t.noApplications)}</p>`
      : `<ul class="cards">\n${input.applications.map((client, i) => applicationCard(ctx, client, i, input.problem)).join('\n')}\n</ul>`;
  return `<h2 id="applications">${escapeHtml(t.applications)}</h2>\n${summary}\n${list}`;
}

function applicationCard(ctx: AccountPageContext, client: Client, index: number, problem: Problem | undefined): string {
  const t = DEVELOPER_MESSAGES[ctx.language];
  const base = `${DEVELOPER_PATH}/applications/${encodeURIComponent(client.clientId)}`;
  const id = `app-${index}`;
  const editProblem = problem?.form === 'edit' && problem.clientId === client.clientId ? problem : undefined;
  const values = editProblem?.values ?? { name: client.name, redirectUris: client.redirectUris.join('\n') };
  const scopes = inDisplayOrder(client.scopes).map((s) => `<li><code>${escapeHtml(s)}</code> ${isKnownScope(s) ? `— ${escapeHtml(SCOPE_DESCRIPTIONS[s][ctx.language])}` : ''}</li>`).join('');
  const rotate =
    client.type === 'confidential'
      ? `<form method="post" action="${base}/rotate-secret">${csrfInput(ctx.csrfToken)}
<p class="muted" id="${id}-rotate-hint">${escapeHtml(t.rotateHint)}</p>
<button type="submit" class="secondary" aria-describedby="${id}-rotate-hint">${escapeHtml(t.rotateSecret)}</button></form>`
      : '';
  return `<li class="card" aria-labelledby="${id}-name">
<h3 id="${id}-name">${isolatedName(client.name)}</h3>
<dl class="facts">
<dt>${escapeHtml(t.clientId)}</dt><dd><code>${escapeHtml(client.clientId)}</code></dd>
<dt>${escapeHtml(t.clientType)}</dt><dd>${escapeHtml(client.type === 'public' ? t.typeHints.publicType : t.typeHints.confidential)}</dd>
<dt>${escapeHtml(t.scopes)}</dt><dd><ul class="scopes">${scopes}</ul></dd>
<dt>${escapeHtml(t.redirectUris)}</dt><dd>${client.redirectUris.map((uri) => `<code>${escapeHtml(uri)}</code>`).join('<br>')}</dd>
<dt>${escapeHtml(t.created)}</dt><dd>${timeElement(client.createdAt, ctx.language)}</dd>
<dt>${escapeHtml(t.verification)}</dt><dd data-verified="${client.verified}">${escapeHtml(client.verified ? t.verified : t.unverified)}
<p class="muted">${escapeHtml(client.verified ? t.verifiedHint : t.unverifiedHint)}</p></dd>
</dl>
<details${editProblem ? ' open' : ''}><summary>${escapeHtml(t.edit)}</summary>
<form method="post" action="${base}/edit">${csrfInput(ctx.csrfToken)}
${editProblem ? alert(`${id}-edit-problem`, t.refused, editProblem.message) : ''}
<label for="${id}-edit-name">${escapeHtml(t.name)}</label>
<input type="text" id="${id}-edit-name" name="name" required maxlength="200" value="${escapeHtml(values.name)}"${editProblem ? ` aria-describedby="${id}-edit-problem"` : ''}>
<label for="${id}-edit-uris">${escapeHtml(t.redirectUris)}</label>
<p class="muted" id="${id}-edit-uris-hint">${escapeHtml(t.redirectUrisHint)}</p>
<textarea id="${id}-edit-uris" name="redirect_uris" rows="3" required aria-describedby="${id}-edit-uris-hint">${escapeHtml(values.redirectUris)}</textarea>
<button type="submit">${escapeHtml(t.save)}</button>
</form>
</details>
${rotate}
<details><summary>${escapeHtml(t.deleteApplication)}…</summary>
<form method="post" action="${base}/delete">${csrfInput(ctx.csrfToken)}
<p class="alert" id="${id}-delete-warning">${escapeHtml(t.deleteWarning)}</p>
<button type="submit" class="danger" aria-describedby="${id}-delete-warning">${escapeHtml(t.deleteConfirm)}</button>
</form>
</details>
</li>`;
}

function registerSection(ctx: AccountPageContext, input: DeveloperPageInput): string {
  const t = DEVELOPER_MESSAGES[ctx.language];
  const problem = input.problem?.form === 'register' ? input.problem : undefined;
  const values: RegisterValues = problem?.values ?? { name: '', redirectUris: '', type: 'confidential', scopes: [] };
  const type = (value: 'confidential' | 'public', label: string) =>
    `<div class="choice"><input type="radio" id="register-type-${value}" name="client_type" value="${value}"${values.type === value ? ' checked' : ''}> <label for="register-type-${value}">${escapeHtml(label)}</label></div>`;
  const scopes = KNOWN_SCOPES.map(
    (scope) =>
      `<div class="choice"><input type="checkbox" id="register-scope-${scope.replace(/[^a-z]/g, '-')}" name="scope" value="${escapeHtml(scope)}"${values.scopes.includes(scope) ? ' checked' : ''}> <label for="register-scope-${scope.replace(/[^a-z]/g, '-')}"><code>${escapeHtml(scope)}</code> — ${escapeHtml(SCOPE_DESCRIPTIONS[scope][ctx.language])}</label></div>`,
  ).join('\n');
  return `<h2 id="register">${escapeHtml(t.registerTitle)}</h2>
<form method="post" action="${DEVELOPER_PATH}/applications">${csrfInput(ctx.csrfToken)}
${problem ? alert('register-problem', t.refused, problem.message) : ''}
<label for="register-name">${escapeHtml(t.name)}</label>
<input type="text" id="register-name" name="name" required maxlength="200" value="${escapeHtml(values.name)}"${problem ? ' aria-describedby="register-problem"' : ''}>
<label for="register-uris">${escapeHtml(t.redirectUris)}</label>
<p class="muted" id="register-uris-hint">${escapeHtml(t.redirectUrisHint)}</p>
<textarea id="register-uris" name="redirect_uris" rows="3" required aria-describedby="register-uris-hint" placeholder="https://app.example/callback">${escapeHtml(values.redirectUris)}</textarea>
<fieldset><legend>${escapeHtml(t.clientType)}</legend>
${type('confidential', t.types.confidential)}
${type('public', t.types.publicType)}
</fieldset>
<fieldset><legend>${escapeHtml(t.scopes)}</legend>
${scopes}
</fieldset>
<div class="choice"><input type="checkbox" id="register-device-flow" name="device_flow" value="on"${values.deviceFlow ? ' checked' : ''} aria-describedby="register-device-flow-hint"> <label for="register-device-flow">${escapeHtml(t.deviceFlow)}</label></div>
<p class="muted" id="register-device-flow-hint">${escapeHtml(t.deviceFlowHint)}</p>
<button type="submit">${escapeHtml(t.register)}</button>
</form>`;
}

function apiKeysSection(ctx: AccountPageContext, input: DeveloperPageInput): string {
  const t = DEVELOPER_MESSAGES[ctx.language];
  const live = input.apiKeys.filter((k) => k.revokedAt === null).length;
  const summary = `<p class="muted">${escapeHtml(t.apiKeysIntro)} ${escapeHtml(live >= input.maxApiKeys ? t.keyAtLimit(input.maxApiKeys) : t.keyCount(live, input.maxApiKeys))}</p>`;
  const rows = input.apiKeys
    .map((key) => {
      const action =
        key.revokedAt === null
          ? `${escapeHtml(t.live)} <form method="post" action="${DEVELOPER_PATH}/api-keys/${key.id}/revoke" class="inline">${csrfInput(ctx.csrfToken)}<button type="submit" class="danger" aria-label="${escapeHtml(`${t.revoke}: ${key.name}`)}">${escapeHtml(t.revoke)}</button></form>`
          : `${escapeHtml(t.revoked)} ${timeElement(key.revokedAt, ctx.language)}`;
      return `<tr><td>${escapeHtml(key.name)}</td><td><code>${escapeHtml(key.prefix)}…</code></td><td>${timeElement(key.createdAt, ctx.language)}</td><td>${
        key.lastUsedAt === null ? escapeHtml(t.never) : timeElement(key.lastUsedAt, ctx.language)
      }</td><td>${action}</td></tr>`;
    })
    .join('\n');
  const table =
    input.apiKeys.length === 0
      ? `<p>${escapeHtml(t.noApiKeys)}</p>`
      : `<table aria-labelledby="api-keys">
<thead><tr><th scope="col">${escapeHtml(t.keyName)}</th><th scope="col">${escapeHtml(t.prefix)}</th><th scope="col">${escapeHtml(t.created)}</th><th scope="col">${escapeHtml(t.lastUsed)}</th><th scope="col">${escapeHtml(t.status)}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<p class="muted">${escapeHtml(t.lastUsedHint)}</p>`;
  const problem = input.problem?.form === 'api_key' ? input.problem : undefined;
  return `<h2 id="api-keys">${escapeHtml(t.apiKeys)}</h2>
${summary}
${table}
<h3 id="create-key">${escapeHtml(t.createKey)}</h3>
<form method="post" action="${DEVELOPER_PATH}/api-keys">${csrfInput(ctx.csrfToken)}
${problem ? alert('key-problem', t.refused, problem.message) : ''}
<label for="key-name">${escapeHtml(t.keyName)}</label>
<input type="text" id="key-name" name="name" required maxlength="200" value="${escapeHtml(problem?.values.name ?? '')}"${problem ? ' aria-describedby="key-problem"' : ''}>
<button type="submit">${escapeHtml(t.createKey)}</button>
</form>`;
}

function alert(id: string, lead: string, message: string): string {
  return `<p class="alert" id="${id}" role="alert">${escapeHtml(lead)} ${escapeHtml(message)}</p>`;
}

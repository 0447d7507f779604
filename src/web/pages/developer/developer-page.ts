import { AccountPageContext, accountPage, instant } from '../account/account-layout';
import { KNOWN_SCOPES, SCOPE_DESCRIPTIONS, inDisplayOrder, isKnownScope } from '../../../common/scopes';
import { Page } from '../../page';
import { DEVELOPER_PATH } from '../../paths';
import { DEVELOPER_MESSAGES, DoneNotice } from './developer-messages';

/** An application as the portal lists it (what the page reads of a registered client). */
export interface ApplicationView {
  clientId: string;
  name: string;
  type: 'public' | 'confidential';
  scopes: string[];
  redirectUris: string[];
  createdAt: number;
  verified: boolean;
}

/** An API key as the portal lists it. */
export interface ApiKeyView {
  id: number;
  name: string;
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** What was just made and is shown this once (README.md, Register your application: `data-credential` elements). */
export type Shown =
  | { kind: 'client'; client: Pick<ApplicationView, 'clientId' | 'name'>; secret?: string; rotated: boolean }
  | { kind: 'api_key'; apiKey: Pick<ApiKeyView, 'name'>; key: string };

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
  applications: ApplicationView[];
  apiKeys: ApiKeyView[];
  maxClients: number;
  maxApiKeys: number;
  shown?: Shown;
  done?: DoneNotice;
  problem?: Problem;
  status?: number;
}

/**
 * `GET /account/developer` (README.md, Register your application): the user's applications (each with edit, rotate secret and
 * delete), the registration form, and the API keys with their own form. Plain forms, so it works with
 * JavaScript off; a secret appears once, on the page the POST that made it redirects to.
 */
export function developerPage(ctx: AccountPageContext, input: DeveloperPageInput): Page {
  const t = DEVELOPER_MESSAGES[ctx.language];
  const count = input.applications.length;
  const data = {
    t,
    pageProblem: input.problem?.form === 'page' ? input.problem.message : undefined,
    done: input.done,
    shown: input.shown && shownData(ctx, input.shown),
    applicationsSummary: count >= input.maxClients ? t.atLimit(input.maxClients) : t.count(count, input.maxClients),
    applications: input.applications.map((client, i) => applicationData(ctx, client, i, input.problem)),
    register: registerData(ctx, input),
    keys: apiKeysData(ctx, input),
  };
  return accountPage(ctx, { section: 'developer', title: t.title, view: 'developer/portal', data, status: input.status });
}

/** The credentials made by the last POST, shown this once. */
function shownData(ctx: AccountPageContext, shown: Shown): object {
  const t = DEVELOPER_MESSAGES[ctx.language];
  if (shown.kind === 'api_key') return { kind: 'api_key', keyName: shown.apiKey.name, key: shown.key };
  return {
    kind: 'client',
    title: shown.rotated ? t.newSecretTitle : t.credentialsTitle,
    clientName: shown.client.name,
    clientId: shown.client.clientId,
    secret: shown.secret || undefined,
    advice: shown.secret ? t.copyNow : t.publicNoSecret,
  };
}

function applicationData(ctx: AccountPageContext, client: ApplicationView, index: number, problem: Problem | undefined): object {
  const t = DEVELOPER_MESSAGES[ctx.language];
  const editProblem = problem?.form === 'edit' && problem.clientId === client.clientId ? problem : undefined;
  return {
    id: `app-${index}`,
    base: `${DEVELOPER_PATH}/applications/${encodeURIComponent(client.clientId)}`,
    name: client.name,
    clientId: client.clientId,
    typeText: client.type === 'public' ? t.typeHints.publicType : t.typeHints.confidential,
    confidential: client.type === 'confidential',
    scopes: inDisplayOrder(client.scopes).map((scope) => ({ name: scope, words: isKnownScope(scope) ? SCOPE_DESCRIPTIONS[scope][ctx.language] : undefined })),
    redirectUris: client.redirectUris,
    created: instant(client.createdAt, ctx.language),
    verified: client.verified,
    editProblem: editProblem?.message,
    values: editProblem?.values ?? { name: client.name, redirectUris: client.redirectUris.join('\n') },
  };
}

function registerData(ctx: AccountPageContext, input: DeveloperPageInput): object {
  const t = DEVELOPER_MESSAGES[ctx.language];
  const problem = input.problem?.form === 'register' ? input.problem : undefined;
  // `profile` ticked to begin with: the scope nearly every application asks for (README.md, Register your application).
  const values: RegisterValues = problem?.values ?? { name: '', redirectUris: '', type: 'confidential', scopes: ['profile'] };
  return {
    action: `${DEVELOPER_PATH}/applications`,
    problem: problem?.message,
    values,
    types: [
      { value: 'confidential', label: t.types.confidential, checked: values.type === 'confidential' },
      { value: 'public', label: t.types.publicType, checked: values.type === 'public' },
    ],
    scopes: KNOWN_SCOPES.map((scope) => ({
      name: scope,
      slug: scope.replace(/[^a-z]/g, '-'),
      words: SCOPE_DESCRIPTIONS[scope][ctx.language],
      checked: values.scopes.includes(scope),
    })),
  };
}

function apiKeysData(ctx: AccountPageContext, input: DeveloperPageInput): object {
  const t = DEVELOPER_MESSAGES[ctx.language];
  const live = input.apiKeys.filter((k) => k.revokedAt === null).length;
  const problem = input.problem?.form === 'api_key' ? input.problem : undefined;
  return {
    summary: live >= input.maxApiKeys ? t.keyAtLimit(input.maxApiKeys) : t.keyCount(live, input.maxApiKeys),
    apiKeys: input.apiKeys.map((key) => ({
      name: key.name,
      prefix: key.prefix,
      created: instant(key.createdAt, ctx.language),
      lastUsed: key.lastUsedAt === null ? null : instant(key.lastUsedAt, ctx.language),
      revoked: key.revokedAt === null ? null : instant(key.revokedAt, ctx.language),
      revokeAction: `${DEVELOPER_PATH}/api-keys/${key.id}/revoke`,
    })),
    action: `${DEVELOPER_PATH}/api-keys`,
    problem: problem?.message,
    name: problem?.values.name ?? '',
  };
}

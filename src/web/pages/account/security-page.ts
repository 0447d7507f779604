import { embeddedJson, Page, PASSKEY_SCRIPTS } from '../../page';
import { AccountPageContext, accountPage, instant } from './account-layout';
import { accountSections, AccountSectionsInput } from './account-security-sections';
import { SECURITY_MESSAGES, SecurityNotice } from './security-messages';

export { SECURITY_PATH } from '../../paths';

/** What the page shows of a passkey (the passkeys module's rows fit it). */
export interface PasskeyListed {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** The authenticator app's state as the page shows it (the second-factor module's state fits it). */
export type AuthenticatorShown =
  | { state: 'off' }
  | { state: 'pending'; secret: string; uri: string; qrSvg: string }
  | { state: 'on'; recoveryCodesLeft: number };

/** A refused form of the page: which one (and which passkey), and why. */
export interface SecurityProblem {
  form: 'confirm' | 'turn_off' | 'passkey_add' | 'passkey_rename' | 'passkey_remove';
  passkeyId?: string;
  message: string;
}

/**
 * `GET /account/security` (README.md, Your account): how the account signs in. Each feature is a
 * section of its own (a partial under views/account/security/): passkeys and the authenticator app
 * (docs/second-factor.md).
 */
export function securityPage(
  ctx: AccountPageContext,
  input: {
    authenticator: AuthenticatorShown;
    passkeys: PasskeyListed[];
    /** The options of **Add a passkey** (JSON), bound to this session. */
    registrationOptions: string;
    recoveryCodes?: string[];
    done?: SecurityNotice;
    problem?: SecurityProblem;
    status?: number;
    /** The password and address sections, and what a form of theirs answers. */
    account: AccountSectionsInput;
  },
): Page {
  const t = SECURITY_MESSAGES[ctx.language];
  const problem = input.problem;
  const account = accountSections(ctx.language, ctx.csrfToken, input.account);
  const refused = account.problem;
  const status = refused === undefined ? input.status : refused.kind === 'throttled' ? 429 : 400;
  const page = accountPage(ctx, {
    section: 'security',
    title: t.title,
    view: 'account/security',
    status,
    data: {
      t,
      notice: input.done === undefined ? account.notice : t.notices[input.done],
      password: account.password,
      email: account.email,
      passkeys: {
        items: input.passkeys.map((p) => ({
          id: p.id,
          name: p.name,
          created: instant(p.createdAt, ctx.language),
          lastUsed: p.lastUsedAt === null ? undefined : instant(p.lastUsedAt, ctx.language),
          renameLabel: t.renameLabel(p.name),
          problem: problem && problem.passkeyId === p.id ? problem : undefined,
        })),
        last: input.passkeys.length === 1,
        options: embeddedJson(input.registrationOptions),
        problem: problem && problem.form === 'passkey_add' ? problem : undefined,
      },
      authenticator: {
        ...input.authenticator,
        recoveryLeft: input.authenticator.state === 'on' ? t.recoveryLeft(input.authenticator.recoveryCodesLeft) : undefined,
        recoveryCodes: input.recoveryCodes,
        problem: problem && (problem.form === 'confirm' || problem.form === 'turn_off') ? problem : undefined,
      },
    },
  });
  const headers = refused?.kind === 'throttled' ? { 'retry-after': String(refused.retryAfterSeconds) } : undefined;
  return { ...page, scripts: PASSKEY_SCRIPTS, headers };
}

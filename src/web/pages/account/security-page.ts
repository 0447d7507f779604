import { embeddedJson, Page, PASSKEY_SCRIPTS } from '../../page';
import { AccountPageContext, accountPage, instant } from './account-layout';
import { accountSections, AccountSectionsInput } from './account-security-sections';
import { SECURITY_MESSAGES, SecurityNotice } from './security-messages';
import { CONFIRM_ACCESS_MESSAGES } from './confirm-access-messages';
import { confirmAccessLink } from './confirm-access-page';

import { SECURITY_PATH } from '../../paths';

export { SECURITY_PATH };

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
  form: 'confirm' | 'recovery_codes' | 'turn_off' | 'passkey_add' | 'passkey_rename' | 'passkey_remove';
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
    /**
     * The options of **Add a passkey** (JSON), bound to this session; undefined without a recent proof:
     * the page then links to the confirm-access page instead of starting a ceremony, and hides the secret
     * of a pending authenticator setup (SECURITY.md, "A borrowed session adding a way in").
     */
    registrationOptions: string | undefined;
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
  const confirmFirst = input.registrationOptions === undefined ? confirmAccessLink(SECURITY_PATH) : undefined;
  const c = CONFIRM_ACCESS_MESSAGES[ctx.language];
  // The secret and its QR code only with a recent proof: a borrowed session never reads a setup's secret.
  const authenticator = confirmFirst !== undefined && input.authenticator.state === 'pending' ? { state: 'pending' as const, confirmFirst: { href: confirmFirst, text: c.confirmToSetUp } } : input.authenticator;
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
        options: input.registrationOptions === undefined ? undefined : embeddedJson(input.registrationOptions),
        confirmFirst: confirmFirst === undefined ? undefined : { href: confirmFirst, text: c.confirmToAddPasskey },
        problem: problem && problem.form === 'passkey_add' ? problem : undefined,
      },
      authenticator: {
        ...authenticator,
        recoveryLeft: input.authenticator.state === 'on' ? t.recoveryLeft(input.authenticator.recoveryCodesLeft) : undefined,
        recoveryCodes: input.recoveryCodes,
        problem: problem && (problem.form === 'confirm' || problem.form === 'recovery_codes' || problem.form === 'turn_off') ? problem : undefined,
      },
    },
  });
  const headers = refused?.kind === 'throttled' ? { 'retry-after': String(refused.retryAfterSeconds) } : undefined;
  return { ...page, scripts: PASSKEY_SCRIPTS, headers };
}

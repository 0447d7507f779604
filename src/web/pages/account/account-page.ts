import { SecurityEventDetails, SecurityEventType } from '../../../common/security-event-types';
import { AccountPageContext, accountPage, instant } from './account-layout';
import { ACCOUNT_MESSAGES } from './account-messages';
import { Page } from '../../page';

/** One security event as the account page lists it. */
export interface AccountEventView {
  type: SecurityEventType;
  at: number;
  ip: string | null;
  details: SecurityEventDetails;
}

/** `GET /account` (README.md, Your account): who is signed in, and the account's last 20 security events. */
export function accountOverviewPage(ctx: AccountPageContext, input: { name: string; email: string; events: AccountEventView[] }): Page {
  const t = ACCOUNT_MESSAGES[ctx.language];
  const events = input.events.map((event) => {
    // The application or key the event was about, after its label.
    const subject = event.details.client ?? event.details.apiKey ?? event.details.passkey;
    const id = event.details.clientId ?? event.details.apiKeyPrefix;
    return {
      at: instant(event.at, ctx.language),
      label: t.events[event.type] ?? event.type,
      subject: subject || undefined,
      id: id || undefined,
      ip: event.ip ?? t.unknownIp,
    };
  });
  return accountPage(ctx, { section: 'account', title: t.accountTitle, view: 'account/overview', data: { t, name: input.name, email: input.email, events } });
}

import { escapeHtml, isolatedName, Page } from '../../web/page';
import { SecurityEventView } from '../events/security-events.service';
import { SecurityEventDetails } from '../events/security-event-types';
import { AccountPageContext, accountPage, timeElement } from './account-layout';
import { ACCOUNT_MESSAGES } from './account-messages';

/** `GET /account` (README.md, Your account): who is signed in, and the account's last 20 security events. */
export function accountOverviewPage(ctx: AccountPageContext, input: { name: string; email: string; events: SecurityEventView[] }): Page {
  const t = ACCOUNT_MESSAGES[ctx.language];
  const rows = input.events
    .map(
      (event) => `<tr><td>${timeElement(event.at, ctx.language)}</td><td>${escapeHtml(t.events[event.type] ?? event.type)}${aboutWhat(event.details)}</td><td class="nowrap">${escapeHtml(event.ip ?? t.unknownIp)}</td></tr>`,
    )
    .join('\n');
  const events =
    input.events.length === 0
      ? `<p>${escapeHtml(t.noEvents)}</p>`
      : `<table aria-labelledby="events">
<thead><tr><th scope="col">${escapeHtml(t.when)}</th><th scope="col">${escapeHtml(t.what)}</th><th scope="col" class="nowrap">${escapeHtml(t.ip)}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
  const body = `<dl class="facts">
<dt>${escapeHtml(t.name)}</dt><dd>${escapeHtml(input.name)}</dd>
<dt>${escapeHtml(t.email)}</dt><dd>${escapeHtml(input.email)}</dd>
</dl>
<h2 id="events">${escapeHtml(t.eventsTitle)}</h2>
<p class="muted">${escapeHtml(t.eventsIntro)}</p>
${events}`;
  return accountPage(ctx, { section: 'account', title: t.accountTitle, body });
}

/** The application or key an event was about, after its label. */
function aboutWhat(details: SecurityEventDetails): string {
  const subject = details.client ?? details.apiKey;
  if (!subject) return '';
  const id = details.clientId ?? details.apiKeyPrefix;
  return `: <strong>${isolatedName(subject)}</strong>${id ? ` <span class="muted">(${escapeHtml(id)})</span>` : ''}`;
}

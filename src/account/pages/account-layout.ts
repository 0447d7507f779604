import { Language } from '../../common/i18n/language';
import { escapeHtml, Page, PLATFORM_NAME } from '../../web/page';
import { ACCOUNT_MESSAGES, AccountSection } from './account-messages';

/** The account pages in the order of their navigation: a new page adds itself here. */
export const ACCOUNT_SECTIONS: ReadonlyArray<{ section: AccountSection; path: string }> = [
  { section: 'account', path: '/account' },
  { section: 'apps', path: '/account/apps' },
  { section: 'developer', path: '/account/developer' },
];

/** What every account page needs from the signed-in request. */
export interface AccountPageContext {
  language: Language;
  /** The CSRF token of the session, for every form on the page. */
  csrfToken: string;
}

/** The hidden CSRF field every POST form of the account pages carries (SECURITY.md; README.md, Your account). */
export function csrfInput(csrfToken: string): string {
  return `<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">`;
}

/**
 * One account page in the shared look: the site's name, the navigation (the current page marked with
 * `aria-current`), **Sign out**, then the page's own content under its one `h1`. Pages render on the
 * server and post plain forms, so they work with JavaScript off; the stylesheet and headers are the
 * ones of the sign-in and consent pages (see sendPage).
 */
export function accountPage(ctx: AccountPageContext, input: { section: AccountSection; title: string; body: string; status?: number }): Page {
  const t = ACCOUNT_MESSAGES[ctx.language];
  const links = ACCOUNT_SECTIONS.map(({ section, path }) => {
    const current = section === input.section ? ' aria-current="page"' : '';
    return `<li><a href="${path}"${current}>${escapeHtml(t.sections[section])}</a></li>`;
  }).join('');
  const header = `<header class="site">
<p class="brand">${escapeHtml(PLATFORM_NAME)}</p>
<nav aria-label="${escapeHtml(t.navigation)}"><ul>${links}</ul></nav>
<form method="post" action="/account/sign-out">${csrfInput(ctx.csrfToken)}<button type="submit" class="secondary">${escapeHtml(t.signOut)}</button></form>
</header>
`;
  return {
    status: input.status ?? 200,
    language: ctx.language,
    title: `${input.title} · ${PLATFORM_NAME}`,
    body: `<h1>${escapeHtml(input.title)}</h1>\n${input.body}`,
    header,
    wide: true,
    // Forms of the account pages post to this site only.
    formTargets: [],
  };
}

const DATE_LOCALES: Record<Language, string> = { tr: 'tr-TR', en: 'en-GB' };

/**
 * An instant for people: date and time in UTC in the page's language (the server does not know the
 * reader's time zone, so it says which one it uses), machine-readable in `datetime`.
 */
export function timeElement(epochMs: number, language: Language): string {
  const date = new Date(epochMs);
  const text = new Intl.DateTimeFormat(DATE_LOCALES[language], { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date);
  return `<time datetime="${date.toISOString()}">${escapeHtml(text)} UTC</time>`;
}

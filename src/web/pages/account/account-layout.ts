import { Language } from '../../../common/i18n/language';
import type { AccountPageContext } from '../../account-errors';
import { Page } from '../../page';
import { ACCOUNT_MESSAGES, AccountSection } from './account-messages';

/** The account pages in the order of their navigation: a new page adds itself here. */
export const ACCOUNT_SECTIONS: ReadonlyArray<{ section: AccountSection; path: string }> = [
  { section: 'account', path: '/account' },
  { section: 'security', path: '/account/security' },
  { section: 'data', path: '/account/data' },
  { section: 'apps', path: '/account/apps' },
  { section: 'developer', path: '/account/developer' },
];

export type { AccountPageContext } from '../../account-errors';

/**
 * One account page in the shared look: the site's name, the navigation (the current page marked with
 * `aria-current`), **Sign out**, then the page's own content under its one `h1`. Pages render on the
 * server and post plain forms, so they work with JavaScript off; the stylesheet and headers are the
 * ones of the sign-in and consent pages (see sendPage).
 */
export function accountPage(ctx: AccountPageContext, input: { section: AccountSection; title: string; view: string; data: object; status?: number }): Page {
  const t = ACCOUNT_MESSAGES[ctx.language];
  return {
    status: input.status ?? 200,
    language: ctx.language,
    title: input.title,
    platformInTitle: true,
    view: input.view,
    // Every form of the page carries the session's CSRF token (SECURITY.md; README.md, Your account).
    data: { ...input.data, heading: input.title, csrfToken: ctx.csrfToken },
    navigation: {
      label: t.navigation,
      links: ACCOUNT_SECTIONS.map(({ section, path }) => ({ href: path, text: t.sections[section], current: section === input.section })),
      csrfToken: ctx.csrfToken,
      signOut: t.signOut,
    },
    wide: true,
    // Forms of the account pages post to this site only.
    formTargets: [],
  };
}

const DATE_LOCALES: Record<Language, string> = { tr: 'tr-TR', en: 'en-GB' };

/**
 * An instant for people: date and time in UTC in the page's language (the server does not know the
 * reader's time zone, so it says which one it uses), machine-readable in `datetime` (views/partials/time.eta).
 */
export function instant(epochMs: number, language: Language): { iso: string; text: string } {
  const date = new Date(epochMs);
  const text = new Intl.DateTimeFormat(DATE_LOCALES[language], { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date);
  return { iso: date.toISOString(), text };
}

import { Language } from '../common/i18n/language';
import { Page } from '../web/page';

const MESSAGES = {
  tr: {
    intro: 'Girişim platformunun genel API\'si ve OAuth 2.0 / OpenID Connect yetkilendirme sunucusu.',
    linksLabel: 'Başlangıç noktaları',
    links: {
      docs: ['API başvuru belgesi', 'Uç noktaları deneyin; demo hesabıyla yetki verin.'],
      developer: ['Geliştirici portalı', 'Uygulamanızı kaydedin, API anahtarı oluşturun.'],
      account: ['Hesabınız', 'Oturum açın; bağlı uygulamalarınızı ve güvenlik olaylarınızı görün.'],
      discovery: ['OpenID Connect keşif belgesi', 'OAuth istemci kitaplıklarının okuduğu sunucu meta verisi (JSON).'],
    },
  },
  en: {
    intro: 'The public API and the OAuth 2.0 / OpenID Connect authorization server of the startup platform.',
    linksLabel: 'Where to start',
    links: {
      docs: ['API reference', 'Try the endpoints; authorize with the demo account.'],
      developer: ['Developer portal', 'Register your application, create an API key.'],
      account: ['Your account', 'Sign in; see your connected apps and security events.'],
      discovery: ['OpenID Connect discovery', 'The server metadata OAuth client libraries read (JSON).'],
    },
  },
} satisfies Record<Language, unknown>;

const TARGETS = {
  docs: '/docs',
  developer: '/account/developer',
  account: '/account',
  discovery: '/.well-known/openid-configuration',
} as const;

/** `GET /` for a browser (README.md, Pages): the platform's name and where to go from here. */
export function frontPage(language: Language, platformName: string): Page {
  const t = MESSAGES[language];
  const links = (Object.keys(TARGETS) as Array<keyof typeof TARGETS>).map((key) => ({ href: TARGETS[key], text: t.links[key][0], hint: t.links[key][1] }));
  return {
    status: 200,
    language,
    title: platformName,
    view: 'home',
    data: { heading: platformName, intro: t.intro, linksLabel: t.linksLabel, links },
    brand: false,
  };
}

/**
 * Whether an `Accept` header (RFC 9110 §12.5.1) prefers `text/html` to `application/json`: a browser's
 * does (`text/html,…,*\/*;q=0.8`); `*\/*`, no header or an API client's `application/json` do not, and
 * get the API's JSON answer.
 */
export function prefersHtml(accept: string | string[] | undefined): boolean {
  const value = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  return quality(value, 'text', 'html') > quality(value, 'application', 'json');
}

/** The q-value the most specific matching range of `accept` gives `type/subtype` (0 when none matches). */
function quality(accept: string, type: string, subtype: string): number {
  let best = { specificity: -1, q: 0 };
  for (const part of accept.split(',').slice(0, 50)) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const [rangeType, rangeSubtype] = range.trim().split('/');
    const specificity = rangeType === type && rangeSubtype === subtype ? 2 : rangeType === type && rangeSubtype === '*' ? 1 : rangeType === '*' && rangeSubtype === '*' ? 0 : -1;
    if (specificity < 0 || specificity < best.specificity) continue;
    let q = 1;
    for (const param of params) {
      const [key, raw] = param.trim().split('=');
      if (key === 'q') q = Number.parseFloat(raw);
    }
    if (!Number.isFinite(q)) q = 0;
    if (specificity > best.specificity) best = { specificity, q };
  }
  return best.q;
}

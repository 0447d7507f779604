import { createHash } from 'node:crypto';
import { Page, pagePolicy, PLATFORM_NAME, renderDocument } from '../page';
import { sentenceWithName } from '../text';
import { renderView } from '../views';
import { consentPage, failurePage, formErrorPage, heldErrorPage, requestErrorPage, signInPage } from './pages';

/** What a page shows inside its `<main>`, as sent. */
const body = (page: Page) => /<main>\n([\s\S]*)<\/main>/.exec(renderDocument(page))![1];

const form = { csrfToken: 'tok"en', transaction: 'v1.abc<def>' };

describe('the authorization pages', () => {
  it('escapes everything that comes from data', () => {
    expect(renderView('partials/name', { name: `<a href="x">'&'</a>` })).toBe('<bdi>&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;</bdi>');
    const page = signInPage({ language: 'en', clientName: '<script>x</script>', redirectOrigin: 'https://app.example', form, email: '"><img src=x>' });
    expect(body(page)).not.toContain('<script>');
    expect(body(page)).not.toContain('"><img');
    expect(body(page)).toContain('value="tok&quot;en"');
    expect(body(page)).toContain('value="v1.abc&lt;def&gt;"');
  });

  it('names the platform above the sign-in, consent and error pages, and leaves it to the navigation of pages that have one', () => {
    const brand = `<header class="brand"><p>${PLATFORM_NAME}</p></header>`;
    for (const language of ['tr', 'en'] as const) {
      expect(renderDocument(signInPage({ language, clientName: 'App', redirectOrigin: 'https://app.example', form }))).toContain(brand);
      expect(renderDocument(requestErrorPage(language, 'unknown_client'))).toContain(brand);
    }
    const withNavigation = renderDocument({ ...requestErrorPage('en', 'unknown_client'), navigation: { label: 'Account', links: [], csrfToken: 't', signOut: 'Sign out' } });
    expect(withNavigation).toContain('<header class="site">\n<p class="brand">Startup Platform</p>');
    expect(withNavigation).not.toContain('<header class="brand">');
  });

  it('labels the sign-in page of an unverified application as its consent page, and of a verified one not', () => {
    for (const [language, label] of [['tr', 'doğrulanmamış'], ['en', 'not verified']] as const) {
      const unverified = body(signInPage({ language, clientName: 'Free Prizes', redirectOrigin: 'https://prizes.example', form, unverified: { redirectHost: 'prizes.example' } }));
      expect(unverified).toMatch(new RegExp(`<div class="warning" id="unverified">\\n<p>[^<]*${label}`));
      expect(unverified).toContain('<strong>prizes.example</strong>');
      const verified = body(signInPage({ language, clientName: 'Free Prizes', redirectOrigin: 'https://prizes.example', form }));
      expect(verified).not.toContain('id="unverified"');
      expect(verified).not.toContain(label);
    }
  });

  it('lists the requested scopes in the catalogue\'s order, whatever order the request gave', () => {
    const page = consentPage({ language: 'en', clientName: 'App', userLabel: 'ada@example.com', scopes: ['read:startups', 'email', 'openid', 'profile'], redirectOrigin: 'https://app.example', form });
    expect([...body(page).matchAll(/<span class="muted">\(([^)]+)\)<\/span><\/li>/g)].map((m) => m[1])).toEqual(['openid', 'profile', 'email', 'read:startups']);
  });

  it('allows exactly the inline stylesheet by its hash, and no script', () => {
    const html = renderDocument(requestErrorPage('en', 'unknown_client'));
    const style = /<style>([\s\S]*)<\/style>/.exec(html)![1];
    const hash = createHash('sha256').update(style, 'utf8').digest('base64');
    const policy = pagePolicy(undefined);
    expect(policy).toContain(`style-src 'sha256-${hash}'`);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("form-action 'none'");
    expect(policy).not.toMatch(/unsafe|script-src/);
    expect(html).not.toContain('<script');
  });

  it('lets forms reach this server and the client\'s redirect origin only', () => {
    expect(pagePolicy(['https://app.example'])).toContain("form-action 'self' https://app.example;");
  });

  it('lets no malformed origin write sources or directives of its own into the policy', () => {
    // The origin of a redirect URI stored before its rules refused `;` and `,` (SECURITY.md).
    const policy = pagePolicy(['https://app.example;script-src', 'https://a.example,b.example', "https://a'b.example", 'https://ok.example']);
    expect(policy).toContain("form-action 'self' https://ok.example;");
    expect(policy.split('; ').map((d) => d.split(' ')[0])).toEqual(['default-src', 'style-src', 'img-src', 'form-action', 'frame-ancestors', 'base-uri']);
    expect(policy).not.toMatch(/script-src|b\.example|a'b/);
  });

  it('isolates a name in <bdi>, escaped, inside the sentence that names it', () => {
    expect(renderView('partials/name', { name: 'Acme <\u202eX>' })).toBe('<bdi>Acme &lt;\u202eX&gt;</bdi>');
    expect(renderView('partials/sentence', sentenceWithName((name) => `${name} wants "access" — ${name}`, '$& <b>'))).toBe('<bdi>$&amp; &lt;b&gt;</bdi> wants &quot;access&quot; — <bdi>$&amp; &lt;b&gt;</bdi>');
    for (const language of ['en', 'tr'] as const) {
      const consent = consentPage({ language, clientName: 'Evil\u202e', userLabel: 'a@example.com', scopes: ['profile'], redirectOrigin: 'https://app.example', form });
      expect(body(consent)).toMatch(/<p id="intro"><bdi>Evil\u202e<\/bdi> [^<]+<\/p>/);
      const signIn = signInPage({ language, clientName: 'Evil\u202e', redirectOrigin: 'https://app.example', form });
      expect(body(signIn)).toMatch(/<p><bdi>Evil\u202e<\/bdi> [^<]+<\/p>/);
    }
  });

  it('names every requested scope in plain words in both languages', () => {
    for (const [language, words] of [
      ['en', ['Sign you in with your Startup Platform account', 'See your name and email address', 'See your email address and whether it is verified', 'Read startup data']],
      ['tr', ['Sizi Startup Platform hesabınızla tanıma (oturum açma)', 'Adınızı ve e-posta adresinizi görme', 'E-posta adresinizi ve doğrulanıp doğrulanmadığını görme', 'Girişim verilerini okuma']],
    ] as const) {
      const page = consentPage({ language, clientName: 'Acme', userLabel: 'a@example.com', scopes: ['email', 'openid', 'profile', 'read:startups'], redirectOrigin: 'https://app.example', form });
      for (const word of words) expect(body(page)).toContain(word);
      expect(renderDocument(page)).toContain(`<html lang="${language}">`);
    }
  });

  it('renders the request error page with status 400 and no form', () => {
    const page = requestErrorPage('tr', 'unregistered_redirect_uri');
    expect(page.status).toBe(400);
    expect(body(page)).toContain('Dönüş adresi (redirect_uri) bu uygulama için kayıtlı değil.');
    expect(body(page)).not.toContain('<form');
  });

  it('gives every error page a way out: the account on this platform, or entering the code again in the device flow', () => {
    for (const language of ['en', 'tr'] as const) {
      const toAccount = language === 'en' ? 'Go to your account' : 'Hesabınıza gidin';
      for (const page of [requestErrorPage(language, 'unknown_client'), formErrorPage(language, 'csrf'), failurePage(language, 503), failurePage(language, 400)]) {
        expect(body(page)).toContain(`<p><a href="/account">${toAccount}</a></p>`);
      }
      expect(body(formErrorPage(language, 'transaction', 'device'))).toContain('<a href="/device">');
    }
  });

  it('warns on an unverified application\'s consent page, naming the redirect host, and says nothing of it for a verified one', () => {
    const base = { clientName: 'Acme', userLabel: 'a@example.com', scopes: ['profile'], redirectOrigin: 'https://app.example', form };
    const en = consentPage({ ...base, language: 'en', unverified: { redirectHost: 'app.example:8443' } });
    expect(body(en)).toContain('not verified by the operator');
    expect(body(en)).toContain('<strong>app.example:8443</strong>');
    expect(body(consentPage({ ...base, language: 'tr', unverified: { redirectHost: 'app.example' } }))).toContain('doğrulanmamış');
    for (const language of ['en', 'tr'] as const) {
      expect(body(consentPage({ ...base, language }))).not.toMatch(/unverified|not verified|doğrulanmamış|app\.example/);
    }
  });

  it('holds an error on a 400 page with an escaped link to the redirect, and links nothing but http(s)', () => {
    const page = heldErrorPage({ language: 'en', clientName: '<b>Acme</b>', error: 'invalid_scope', location: 'https://app.example/cb?error=invalid_scope&state=%22%3E' });
    expect(page.status).toBe(400);
    expect(page.formTargets).toBeUndefined();
    expect(body(page)).toContain('<a href="https://app.example/cb?error=invalid_scope&amp;state=%22%3E" rel="noreferrer">Go back to <strong>app.example</strong></a>');
    expect(body(page)).toContain('<bdi>&lt;b&gt;Acme&lt;/b&gt;</bdi> is an unverified application');
    expect(body(page)).not.toContain('<b>Acme');
    const odd = heldErrorPage({ language: 'tr', clientName: 'Acme', error: 'access_denied', location: 'javascript:alert(1)//x' });
    expect(body(odd)).not.toContain('<a ');
  });
});

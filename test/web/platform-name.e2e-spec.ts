import { http } from '../helpers/http';
import { authorizePath, BrowserSession, createSignInUser, hiddenInputs, registerClient } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * `PLATFORM_NAME` names the platform on every page (README.md, Configuration): above the pages without
 * navigation, in the account pages' titles and navigation, in the sentences that speak of it (the
 * `openid` scope's among them), and in the API reference's title.
 */
describe('the platform is named by PLATFORM_NAME on the pages', () => {
  const NAME = 'Girişim Ağı & Co';
  const ESCAPED = 'Girişim Ağı &amp; Co';
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ PLATFORM_NAME: NAME });
  });
  afterAll(() => t.close());

  it('above the sign-in page, in the account page title, and on the sign-out confirmation, never the default', async () => {
    const user = await createSignInUser(t.app);
    const browser = new BrowserSession(t.url);

    const signIn = await browser.get('/oauth/sign-in?return_to=%2Faccount');
    expect(signIn.status).toBe(200);
    expect(signIn.text).toContain(`<p>${ESCAPED}</p>`);

    const account = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password });
    expect([303, 302]).toContain(account.status);
    const page = await browser.get('/account');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(new RegExp(`<title>[^<]* · ${ESCAPED}</title>`));

    const logout = await browser.get('/oauth/logout');
    expect(logout.status).toBe(200);
    expect(logout.text).toContain(ESCAPED);
    for (const text of [signIn.text, page.text, logout.text]) expect(text).not.toContain('Startup Platform');
  });

  it('in the words of the openid scope on the consent page, in English and Turkish', async () => {
    const user = await createSignInUser(t.app);
    const rp = await registerClient(t.app, { scopes: ['openid', 'email'] });
    for (const [language, words] of [['en', `Sign you in with your ${ESCAPED} account`], ['tr', `Sizi ${ESCAPED} hesabınızla tanıma`]]) {
      const browser = new BrowserSession(t.url, language);
      const path = authorizePath({ response_type: 'code', client_id: rp.clientId, redirect_uri: 'http://127.0.0.1:9/callback', scope: 'openid email', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' });
      const signIn = await browser.get(path);
      const consent = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password });
      const page = consent.status === 200 ? consent : await browser.get(consent.location!);
      expect(page.text).toContain(words);
      expect(page.text).not.toContain('{platform}');
      expect(page.text).not.toContain('Startup Platform');
    }
  });

  it('in the title of the API reference and its openid scope', async () => {
    const document = JSON.parse((await http(t.url, '/docs-json')).text);
    expect(document.info.title).toBe(`${NAME} API`);
    expect(JSON.stringify(document)).toContain(`Sign you in with your ${NAME} account.`);
    // Written into Swagger UI's page escaped, as every page writes it.
    expect((await http(t.url, '/docs')).text).toContain(`<title>${ESCAPED} API reference</title>`);
  });

  it('and on the front page for browsers', async () => {
    const res = await http(t.url, '/', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.text).toContain(ESCAPED);
    expect(res.text).not.toContain('Startup Platform');
  });
});


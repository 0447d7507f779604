import { http } from '../helpers/http';
import { BrowserSession, createSignInUser, hiddenInputs } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * `PLATFORM_NAME` names the platform on every page (README.md, Configuration): above the pages without
 * navigation, in the account pages' titles and navigation, and in the sentences that speak of it.
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

  it('and on the front page for browsers', async () => {
    const res = await http(t.url, '/', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.text).toContain(ESCAPED);
    expect(res.text).not.toContain('Startup Platform');
  });
});


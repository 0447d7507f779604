import { DataSource } from 'typeorm';
import { SecurityEventsService } from '../../src/security-events/security-events.service';
import { formInputs, signInAt } from '../helpers/account';
import { BrowserSession, createSignInUser, hiddenInputs, OAuthTestUser } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/** The shell of the account pages and `/account` (README.md, Your account), over HTTP as a browser uses them. */
describe('account pages (README.md, Your account)', () => {
  let t: TestApp;
  let events: SecurityEventsService;

  beforeAll(async () => {
    t = await startTestApp();
    events = t.app.get(SecurityEventsService, { strict: false });
  });
  afterAll(() => t.close());

  const newUser = () => createSignInUser(t.app);

  describe('signing in', () => {
    it('sends an anonymous visitor to the one sign-in page and back to the page asked for', async () => {
      const ada = await newUser();
      const browser = new BrowserSession(t.url);
      const asked = await browser.get('/account?from=mail');
      expect(asked.status).toBe(303);
      expect(asked.location).toBe('/oauth/sign-in?return_to=%2Faccount%3Ffrom%3Dmail');
      expect(asked.headers.get('cache-control')).toBe('no-store');

      const page = await browser.get(asked.location!);
      expect(page.status).toBe(200);
      expect(page.text).toContain('name="email"');
      expect(page.text).toContain('name="password"');
      expect(page.text).toContain('Sign in to manage your account.');
      expect(hiddenInputs(page.text).return_to).toBe('/account?from=mail');
      expect(page.headers.get('content-security-policy')).toContain("form-action 'self';");

      const signedIn = await browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: ada.email, password: ada.password });
      expect(signedIn.status).toBe(303);
      expect(signedIn.location).toBe('/account?from=mail');
      const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('sp_session='))!;
      expect(cookie).toContain('Path=/;');
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');

      const account = await browser.get(signedIn.location!);
      expect(account.status).toBe(200);
      expect(account.text).toContain(ada.email);
    });

    it('never sends anyone off the site after sign-in, whatever return_to says', async () => {
      const ada = await newUser();
      for (const returnTo of ['https://evil.example/account', '//evil.example', '/\\evil.example', '/oauth/token', '/account/../oauth/authorize']) {
        const browser = new BrowserSession(t.url);
        const page = await browser.get(`/oauth/sign-in?return_to=${encodeURIComponent(returnTo)}`);
        expect(hiddenInputs(page.text).return_to).toBe('/account');
        const posted = await browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), return_to: returnTo, email: ada.email, password: ada.password });
        expect(posted.status).toBe(303);
        expect(posted.location).toBe('/account');
      }
    });

    it('sends a signed-in visitor of the sign-in page straight back', async () => {
      const ada = await newUser();
      const browser = new BrowserSession(t.url);
      await signInAt(browser, '/account', ada);
      const page = await browser.get('/oauth/sign-in?return_to=%2Faccount');
      expect(page.status).toBe(303);
      expect(page.location).toBe('/account');
    });

    it('shows the same page again with a clear message for a wrong password, and records the failure', async () => {
      const ada = await newUser();
      const browser = new BrowserSession(t.url);
      const page = await browser.get('/oauth/sign-in?return_to=%2Faccount');
      const failed = await browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: ada.email, password: 'wrong password' });
      expect(failed.status).toBe(400);
      expect(failed.text).toContain('The email address or password is incorrect.');
      expect(hiddenInputs(failed.text).return_to).toBe('/account');
      expect(failed.headers.getSetCookie().some((c) => c.startsWith('sp_session=v1.'))).toBe(false);
      expect((await events.recent(ada.id)).map((e) => [e.type, e.ip])).toEqual([['sign_in_failed', '127.0.0.1']]);
    });

    it('refuses a sign-in post without the CSRF token of the session, and signs no one in', async () => {
      const ada = await newUser();
      const browser = new BrowserSession(t.url);
      await browser.get('/oauth/sign-in');
      const refused = await browser.post('/oauth/sign-in', { return_to: '/account', email: ada.email, password: ada.password });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toContain('text/html');
      expect(await events.recent(ada.id)).toEqual([]);
      expect((await browser.get('/account')).status).toBe(303);
    });
  });

  describe('/account', () => {
    let ada: OAuthTestUser;
    let browser: BrowserSession;

    beforeAll(async () => {
      ada = await newUser();
      browser = new BrowserSession(t.url);
      await signInAt(browser, '/account', ada);
    });

    it('shows name, email, Sign out and the security events, newest first, with time and IP', async () => {
      await events.record({ userId: ada.id, type: 'consent_given', ip: '203.0.113.5', details: { client: 'Acme <Books>', clientId: 'acme', scope: 'profile' } });
      const page = await browser.get('/account');
      expect(page.status).toBe(200);
      expect(page.text).toContain('<html lang="en">');
      expect(page.text).toContain(ada.email);
      expect(page.text).toMatch(/<button type="submit"[^>]*>Sign out<\/button>/);
      expect(page.text).toContain('<h1>Your account</h1>');
      expect(page.text).toContain('Acme &lt;Books&gt;');
      const consent = page.text.indexOf('Access given to an application');
      const signIn = page.text.indexOf('Signed in');
      expect(consent).toBeGreaterThan(0);
      expect(signIn).toBeGreaterThan(consent);
      expect(page.text).toContain('203.0.113.5');
      expect(page.text).toMatch(/<time datetime="\d{4}-\d\d-\d\dT[^"]+Z">[^<]+ UTC<\/time>/);
    });

    it('sends the headers of docs/integrate-with-oauth.md and SECURITY.md and is never cached', async () => {
      const page = await browser.get('/account');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('content-security-policy')).not.toMatch(/script-src|unsafe/);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    });

    it('speaks Turkish by default and English when asked', async () => {
      const turkish = await browser.get('/account', { 'accept-language': '' });
      expect(turkish.text).toContain('<html lang="tr">');
      expect(turkish.text).toContain('Oturumu kapat');
      expect(turkish.text).toContain('Güvenlik olayları');
      expect(turkish.headers.get('content-language')).toBe('tr');
      const english = await browser.get('/account', { 'accept-language': 'en-GB,en;q=0.9' });
      expect(english.headers.get('content-language')).toBe('en');
    });

    it('answers a wrong method on an account page with an HTML page', async () => {
      const wrong = await browser.post('/account', {});
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('content-type')).toBe('text/html; charset=utf-8');
    });
  });

  describe('Sign out', () => {
    it('ends the session: the account asks for a sign-in again, and the event is recorded', async () => {
      const ada = await newUser();
      const browser = new BrowserSession(t.url);
      const page = await signInAt(browser, '/account', ada);
      const out = await browser.post('/account/sign-out', formInputs(page.text, '/account/sign-out'));
      expect(out.status).toBe(303);
      expect(out.location).toBe('/oauth/sign-in?return_to=%2Faccount');
      expect(out.headers.getSetCookie().find((c) => c.startsWith('sp_session='))).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
      expect((await browser.get('/account')).status).toBe(303);
      expect((await events.recent(ada.id)).map((e) => e.type)).toEqual(['sign_out', 'sign_in']);
    });

    it.each([
      ['without the CSRF token', (_form: Record<string, string>) => ({}), {}],
      ['with a forged CSRF token', (form: Record<string, string>) => ({ ...form, csrf_token: form.csrf_token.slice(0, -2) + 'AA' }), {}],
      ['from another site', (form: Record<string, string>) => form, { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
    ])('changes nothing when posted %s: a 403 page', async (_name, forge, headers) => {
      const ada = await newUser();
      const browser = new BrowserSession(t.url);
      const page = await signInAt(browser, '/account', ada);
      const refused = await browser.post('/account/sign-out', forge(formInputs(page.text, '/account/sign-out')), headers);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(refused.headers.get('x-frame-options')).toBe('DENY');
      expect(refused.text).toContain('Nothing was changed.');
      expect(refused.headers.getSetCookie()).toEqual([]);
      expect((await browser.get('/account')).status).toBe(200);
      expect((await events.recent(ada.id)).map((e) => e.type)).toEqual(['sign_in']);
    });

    it("changes nothing when a second user's session replays the first user's form", async () => {
      const [ada, bob] = [await newUser(), await newUser()];
      const adaBrowser = new BrowserSession(t.url);
      const bobBrowser = new BrowserSession(t.url);
      const adaPage = await signInAt(adaBrowser, '/account', ada);
      await signInAt(bobBrowser, '/account', bob);
      const replayed = await bobBrowser.post('/account/sign-out', formInputs(adaPage.text, '/account/sign-out'));
      expect(replayed.status).toBe(403);
      expect((await bobBrowser.get('/account')).status).toBe(200);
      expect((await adaBrowser.get('/account')).status).toBe(200);
      expect((await events.recent(bob.id)).map((e) => e.type)).toEqual(['sign_in']);
    });

    it('refuses a post whose account is gone with a 403 page that offers to sign in again', async () => {
      const ada = await newUser();
      const browser = new BrowserSession(t.url);
      const page = await signInAt(browser, '/account', ada);
      await t.app.get(DataSource).query(`DELETE FROM users WHERE id = ${ada.id}`);
      const refused = await browser.post('/account/sign-out', formInputs(page.text, '/account/sign-out'));
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('You are no longer signed in.');
      expect(refused.text).toContain('href="/oauth/sign-in?return_to=%2Faccount"');
      expect((await browser.get('/account')).status).toBe(303);
    });
  });
});

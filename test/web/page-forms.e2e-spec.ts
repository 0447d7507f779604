import { formInputs, signInAt } from '../helpers/account';
import { BrowserSession, createSignInUser, hiddenInputs } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * Every form of the pages is a typed DTO validated by the API's validation pipe (docs/add-a-module.md, "A
 * module with pages"); a form it refuses is answered with the page error in the browser's language, never
 * the API's JSON and never a 500, and changes nothing.
 */
describe('page forms refused by their DTO', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function signInForm(browser: BrowserSession): Promise<Record<string, string>> {
    const page = await browser.get('/oauth/sign-in?return_to=%2Faccount');
    expect(page.status).toBe(200);
    return hiddenInputs(page.text);
  }

  it.each([
    ['a repeated email (an array where a string is expected)', (user: { email: string }) => ({ email: [user.email, 'other@example.com'] })],
    ['a password longer than any page field', () => ({ password: 'x'.repeat(9000) })],
    ['an unknown field', () => ({ is_admin: 'yes' })],
    ['a __proto__ field', () => ({ ['__proto__']: 'x' })],
    ['a constructor field', () => ({ constructor: 'x' })],
  ])('answers the sign-in form with %s by the page error, in English and Turkish, and signs no one in', async (_case, hostile) => {
    const user = await createSignInUser(t.app);
    for (const [language, words] of [['en', 'The request could not be read.'], ['tr', 'İstek okunamadı.']]) {
      const browser = new BrowserSession(t.url, language);
      const refused = await browser.post('/oauth/sign-in', { ...(await signInForm(browser)), email: user.email, password: user.password, ...hostile(user) });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
      expect(refused.headers.get('content-language')).toBe(language);
      expect(refused.text).toContain(words);
      expect((await browser.get('/account')).status).toBe(303);
    }
  });

  it('answers an account form with a repeated field by the page error, and keeps the password', async () => {
    const user = await createSignInUser(t.app);
    const browser = new BrowserSession(t.url);
    expect((await signInAt(browser, '/account', user)).status).toBe(200);
    const form = formInputs((await browser.get('/account/security')).text, '/account/security/password');
    const refused = await browser.post('/account/security/password', { ...form, current_password: user.password, new_password: ['a new long sentence here', 'another long sentence'] });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('The request could not be read.');
    expect((await signInAt(new BrowserSession(t.url), '/account', user)).status).toBe(200);
  });

  it('still checks the CSRF token first: a forged hostile form is the 403 page', async () => {
    const browser = new BrowserSession(t.url);
    const form = await signInForm(browser);
    const forged = await browser.post('/oauth/sign-in', { ...form, csrf_token: 'forged', email: ['a', 'b'] });
    expect(forged.status).toBe(403);
  });
});

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

  it('answers a button that posts any field besides its CSRF token by the page error, and does nothing it would have done', async () => {
    const user = await createSignInUser(t.app);
    const browser = new BrowserSession(t.url);
    expect((await signInAt(browser, '/account', user)).status).toBe(200);
    const portal = '/account/developer';
    const made = await browser.post(`${portal}/api-keys`, { ...formInputs((await browser.get(portal)).text, `${portal}/api-keys`), name: 'CI key' });
    expect(made.status).toBe(303);
    const revokeAction = /action="(\/account\/developer\/api-keys\/\d+\/revoke)"/.exec((await browser.get(portal)).text)![1];

    for (const [page, action] of [['/account', '/account/sign-out'], [portal, revokeAction]]) {
      const form = formInputs((await browser.get(page)).text, action);
      expect(Object.keys(form)).toEqual(['csrf_token']);
      const refused = await browser.post(action, { ...form, return_to: 'https://evil.example/' });
      expect([action, refused.status, refused.headers.get('content-type')]).toEqual([action, 400, expect.stringMatching(/^text\/html/)]);
      expect(refused.text).toContain('The request could not be read.');
    }
    // Still signed in, and the key still live: then the same buttons, as the pages post them, do their work.
    const listed = (await browser.get(portal)).text;
    expect(listed).toContain(revokeAction);
    expect((await browser.post(revokeAction, formInputs(listed, revokeAction))).status).toBe(303);
    expect((await browser.get(portal)).text).not.toContain(revokeAction);
    expect((await browser.post('/account/sign-out', formInputs((await browser.get('/account')).text, '/account/sign-out'))).status).toBe(303);
    expect((await browser.get('/account')).status).toBe(303);
  });

  it('still checks the CSRF token first: a forged hostile form is the 403 page', async () => {
    const browser = new BrowserSession(t.url);
    const form = await signInForm(browser);
    const forged = await browser.post('/oauth/sign-in', { ...form, csrf_token: 'forged', email: ['a', 'b'] });
    expect(forged.status).toBe(403);
  });
});

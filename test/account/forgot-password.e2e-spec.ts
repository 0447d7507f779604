
import { FORGOT_PASSWORD_ANSWER_MS } from '../../src/account/password/password-reset.service';
import { followSeeOther, formInputs, signInAt } from '../helpers/account';
import { TestClock } from '../helpers/clock';
import { MailTestApp, startMailTestApp } from '../helpers/mail';
import { BrowserSession, createSignInUser, OAuthTestUser } from '../helpers/oauth';
import { TestApp } from '../helpers/test-app';

/** README.md, Your account: forgot password; SECURITY.md, "Account enumeration", "Links in mails". */
describe('forgot password (README.md, Your account)', () => {
  let t: TestApp;
  let clock: TestClock;
  let mailApp: MailTestApp;

  beforeAll(async () => {
    mailApp = await startMailTestApp();
    ({ t, clock } = mailApp);
  });
  afterAll(() => mailApp?.close());

  async function forgot(email: string, language = 'en') {
    const browser = new BrowserSession(t.url, language);
    const page = await browser.get('/account/forgot-password');
    expect(page.status).toBe(200);
    return Object.assign(await browser.post('/account/forgot-password', { ...formInputs(page.text, '/account/forgot-password'), email }), { browser });
  }

  const resetLink = (text: string) => /https?:\/\/\S+\/account\/reset-password\?token=\S+/.exec(text)![0].slice(t.url.length);

  async function resetMail(user: OAuthTestUser) {
    const before = (await mailApp.mailsTo(user.email)).length;
    await forgot(user.email);
    const mails = await mailApp.mailsTo(user.email);
    expect(mails).toHaveLength(before + 1);
    return mails[before];
  }

  it('answers the same for an address with an account and one without, and mails only the owner', async () => {
    const user = await createSignInUser(t.app);
    const stranger = `nobody-${Date.now()}@example.com`;
    const known = await forgot(user.email);
    const unknown = await forgot(stranger);
    expect(known.status).toBe(303);
    expect(known.status).toBe(unknown.status);
    expect(known.location).toBe(unknown.location);
    expect(known.text).toBe(unknown.text);
    expect([...known.headers.keys()].sort()).toEqual([...unknown.headers.keys()].sort());
    // The page redirected to is the same too, and names neither address.
    const knownPage = await followSeeOther(known.browser, known, '/account/forgot-password/sent');
    const unknownPage = await followSeeOther(unknown.browser, unknown, '/account/forgot-password/sent');
    expect(knownPage.status).toBe(200);
    expect(knownPage.text).toBe(unknownPage.text);
    expect([...knownPage.headers.keys()].sort()).toEqual([...unknownPage.headers.keys()].sort());
    expect(knownPage.text + unknownPage.text).not.toMatch(new RegExp(`${user.email}|${stranger}`));
    expect((await mailApp.mailsTo(user.email))[0].subject).toContain('reset your password');
    expect(await mailApp.mailsTo(stranger)).toHaveLength(0);
  });

  it('answers an address without an account no sooner than one with an account: both wait FORGOT_PASSWORD_ANSWER_MS (no enumeration by timing)', async () => {
    const user = await createSignInUser(t.app);
    const timed = async (email: string) => {
      const browser = new BrowserSession(t.url, 'en');
      const form = formInputs((await browser.get('/account/forgot-password')).text, '/account/forgot-password');
      const started = performance.now();
      const answer = await browser.post('/account/forgot-password', { ...form, email });
      expect(answer.status).toBe(303);
      return performance.now() - started;
    };
    // A lower bound only, which no machine's speed can break: finding no account took about 2 ms.
    expect(await timed(`nobody-${Date.now()}@example.com`)).toBeGreaterThanOrEqual(FORGOT_PASSWORD_ANSWER_MS - 1);
    expect(await timed(user.email)).toBeGreaterThanOrEqual(FORGOT_PASSWORD_ANSWER_MS - 1);
  });

  it('sets the new password through the link, ends every session of the account, records it, mails a notice and sends to sign in', async () => {
    const user = await createSignInUser(t.app);
    const signedIn = new BrowserSession(t.url, 'en');
    expect((await signInAt(signedIn, '/account', user)).status).toBe(200);
    const mail = await resetMail(user);

    const browser = new BrowserSession(t.url, 'en');
    const page = await browser.get(resetLink(mail.text));
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.text).toContain('name="password"');
    clock.advance(1000);
    const newPassword = 'a brand new sentence for this account';
    const done = await browser.post('/account/reset-password', { ...formInputs(page.text, '/account/reset-password'), password: newPassword });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/oauth/sign-in?return_to=%2Faccount&done=password_reset');
    expect((await browser.get(done.location!)).text).toContain('<p class="notice" role="status">Your password was changed. Sign in with it.</p>');
    expect((await new BrowserSession(t.url, 'tr').get(done.location!)).text).toContain('Parolanız değiştirildi. Yeni parolanızla oturum açın.');

    // The session signed in before is ended; the old password fails, the new one works.
    expect((await signedIn.get('/account')).status).toBe(303);
    await expect(signInAt(new BrowserSession(t.url), '/account', user)).rejects.toThrow(/got 400/);
    const account = await signInAt(new BrowserSession(t.url), '/account', { email: user.email, password: newPassword });
    expect(account.text).toContain('Password reset through the mailed link');
    const notices = await mailApp.mailsTo(user.email);
    expect(notices[notices.length - 1].subject).toContain('your password was changed');
  });

  it('takes a link once and not after PASSWORD_RESET_TTL, and a scanner opening it changes nothing', async () => {
    const user = await createSignInUser(t.app);
    const link = resetLink((await resetMail(user)).text);
    const browser = new BrowserSession(t.url, 'en');
    for (let i = 0; i < 3; i++) expect((await new BrowserSession(t.url).get(link)).status).toBe(200);
    expect((await signInAt(new BrowserSession(t.url), '/account', user)).status).toBe(200);
    const form = formInputs((await browser.get(link)).text, '/account/reset-password');
    clock.advance(1000);
    expect((await browser.post('/account/reset-password', { ...form, password: 'first new password here' })).status).toBe(303);
    const again = await browser.post('/account/reset-password', { ...form, password: 'second new password here' });
    expect(again.status).toBe(400);
    expect(again.text).toContain('This link does not work');
    expect(again.text).toContain('href="/account/forgot-password"');

    const late = resetLink((await resetMail(user)).text);
    const lateForm = formInputs((await browser.get(late)).text, '/account/reset-password');
    clock.advance(1800_000);
    expect((await browser.get(late)).status).toBe(400);
    expect((await browser.post('/account/reset-password', { ...lateForm, password: 'too late for this one' })).status).toBe(400);
    expect((await signInAt(new BrowserSession(t.url), '/account', { email: user.email, password: 'first new password here' })).status).toBe(200);
  });

  it('refuses a weak new password with a clear message and keeps the link usable', async () => {
    const user = await createSignInUser(t.app);
    const link = resetLink((await resetMail(user)).text);
    const browser = new BrowserSession(t.url, 'tr');
    const form = formInputs((await browser.get(link)).text, '/account/reset-password');
    const weak = await browser.post('/account/reset-password', { ...form, password: 'qwerty123' });
    expect(weak.status).toBe(400);
    expect(weak.text).toContain('Parola değişmedi.');
    expect(weak.text).toContain('en sık kullanılan parolalardan biri');
    const same = await browser.post('/account/reset-password', { ...formInputs(weak.text, '/account/reset-password'), password: user.email });
    expect(same.text).toContain('e-posta adresinizle aynı olamaz');
    expect((await signInAt(new BrowserSession(t.url), '/account', user)).status).toBe(200);
    clock.advance(1000);
    expect((await browser.post('/account/reset-password', { ...form, password: 'uzun ve güzel bir parola' })).status).toBe(303);
  });

  it('says a value that is not an address is not one, and mails nothing', async () => {
    const answer = await forgot('not an address');
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('This is not an email address');
  });
});

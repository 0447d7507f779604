
import { followSeeOther, formInputs, signInAt } from '../helpers/account';
import { TestClock } from '../helpers/clock';
import { MailTestApp, startMailTestApp } from '../helpers/mail';
import { BrowserSession, createSignInUser, OAuthTestUser } from '../helpers/oauth';
import { TestApp } from '../helpers/test-app';

/** README.md, Your account: /account/security, change password and change email. */
describe('the account security page (README.md, Your account)', () => {
  let t: TestApp;
  let clock: TestClock;
  let mailApp: MailTestApp;

  beforeAll(async () => {
    mailApp = await startMailTestApp({ SIGN_IN_MAX_FAILURES: '20' });
    ({ t, clock } = mailApp);
  });
  afterAll(() => mailApp?.close());

  async function securityForm(browser: BrowserSession, action: string) {
    const page = await browser.get('/account/security');
    expect(page.status).toBe(200);
    return formInputs(page.text, action);
  }

  async function signedIn(user: OAuthTestUser, language = 'en') {
    const browser = new BrowserSession(t.url, language);
    expect((await signInAt(browser, '/account', user)).status).toBe(200);
    return browser;
  }

  it('is linked from /account and shows each section', async () => {
    const browser = await signedIn(await createSignInUser(t.app));
    expect((await browser.get('/account')).text).toContain('href="/account/security"');
    const page = await browser.get('/account/security');
    expect(page.text).toContain('name="current_password"');
    expect(page.text).toContain('name="new_password"');
    expect(page.text).toContain('name="new_email"');
  });

  it('changes the password: the current one checked, other sessions ended, this one kept, an event and a notice mail', async () => {
    const user = await createSignInUser(t.app);
    const here = await signedIn(user);
    const elsewhere = await signedIn(user);
    // Later than the sign-ins just recorded (by the wall clock), so the change is the account's latest event.
    clock.advance(60_000);
    const wrong = await here.post('/account/security/password', { ...(await securityForm(here, '/account/security/password')), current_password: 'not it at all', new_password: 'a new long sentence here' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('The current password is not right');
    const weak = await here.post('/account/security/password', { ...(await securityForm(here, '/account/security/password')), current_password: user.password, new_password: 'password1' });
    expect(weak.status).toBe(400);
    expect(weak.text).toContain('most common');

    const fresh = 'a new long sentence here';
    const done = await here.post('/account/security/password', { ...(await securityForm(here, '/account/security/password')), current_password: user.password, new_password: fresh });
    expect(done.status).toBe(303);
    expect((await here.get(done.location!)).text).toContain('Your password was changed');
    expect((await here.get('/account')).status).toBe(200);
    expect((await elsewhere.get('/account')).status).toBe(303);
    await expect(signInAt(new BrowserSession(t.url), '/account', user)).rejects.toThrow(/got 400/);
    const account = await signInAt(new BrowserSession(t.url), '/account', { email: user.email, password: fresh });
    expect(account.text).toContain('Password changed');
    expect((await mailApp.mailsTo(user.email)).map((m) => m.subject)).toContain('Startup Platform: your password was changed');
  });

  it('changes the address only through the link mailed to the new one, tells the old one, and records it', async () => {
    const user = await createSignInUser(t.app);
    const browser = await signedIn(user);
    const newEmail = `moved-${Date.now()}@example.com`;
    const wrong = await browser.post('/account/security/email', { ...(await securityForm(browser, '/account/security/email')), new_email: newEmail, current_password: 'wrong one' });
    expect(wrong.status).toBe(400);
    expect(await mailApp.mailsTo(newEmail)).toHaveLength(0);

    const sent = await browser.post('/account/security/email', { ...(await securityForm(browser, '/account/security/email')), new_email: newEmail, current_password: user.password });
    const notice = await followSeeOther(browser, sent, '/account/security?done=email_link_sent');
    expect(notice.status).toBe(200);
    expect(notice.text).toContain('<p class="notice" role="status">We are sending a confirmation link to your new address.');
    expect((await new BrowserSession(t.url, 'tr').get('/account/security?done=email_link_sent', { cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ') })).text).toContain('Yeni adresinize bir doğrulama bağlantısı gönderiyoruz.');
    // A reload of the page redirected to sends no second link and changes nothing.
    for (let i = 0; i < 3; i++) expect((await browser.get(sent.location!)).status).toBe(200);
    expect(await mailApp.mailsTo(newEmail)).toHaveLength(1);
    // Nothing changed yet: the old address still signs in.
    expect((await signInAt(new BrowserSession(t.url), '/account', user)).status).toBe(200);
    const [mail] = await mailApp.mailsTo(newEmail);
    expect(mail.subject).toContain('confirm your new email address');
    // The address is not proven the account's yet: the account's name (its holder's words) is not sent to it.
    expect(mail.text.startsWith('Hello,')).toBe(true);
    expect(mail.text + mail.html).not.toContain('Ada ');
    const link = /https?:\/\/\S+\/account\/confirm-new-email\?token=\S+/.exec(mail.text)![0].slice(t.url.length);
    // A mail scanner's GET changes nothing.
    const scanner = await new BrowserSession(t.url, 'en').get(link);
    expect(scanner.status).toBe(200);
    expect(scanner.headers.get('referrer-policy')).toBe('no-referrer');
    expect((await signInAt(new BrowserSession(t.url), '/account', user)).status).toBe(200);

    const reader = new BrowserSession(t.url, 'en');
    const page = await reader.get(link);
    const changed = await reader.post('/account/confirm-new-email', formInputs(page.text, '/account/confirm-new-email'));
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('Your email address changed');
    expect((await reader.post('/account/confirm-new-email', formInputs(page.text, '/account/confirm-new-email'))).status).toBe(400);
    await expect(signInAt(new BrowserSession(t.url), '/account', user)).rejects.toThrow(/got 400/);
    const account = await signInAt(new BrowserSession(t.url), '/account', { email: newEmail, password: user.password });
    expect(account.text).toContain('Email address changed');
    const old = await mailApp.mailsTo(user.email);
    expect(old[old.length - 1].subject).toContain('your email address was changed');
    expect(old[old.length - 1].text).toContain(newEmail);
  });

  it('answers the same for a new address that has an account, and mails its owner instead of a link', async () => {
    const owner = await createSignInUser(t.app);
    const user = await createSignInUser(t.app);
    const browser = await signedIn(user);
    const answer = await browser.post('/account/security/email', { ...(await securityForm(browser, '/account/security/email')), new_email: owner.email, current_password: user.password });
    const otherUser = await createSignInUser(t.app);
    const other = await signedIn(otherUser);
    const fresh = await other.post('/account/security/email', { ...(await securityForm(other, '/account/security/email')), new_email: `free-${Date.now()}@example.com`, current_password: otherUser.password });
    expect([answer.status, answer.location, answer.text]).toEqual([fresh.status, fresh.location, fresh.text]);
    expect([...answer.headers.keys()].sort()).toEqual([...fresh.headers.keys()].sort());
    const page = await followSeeOther(browser, answer, '/account/security?done=email_link_sent');
    expect(page.text).toContain('We are sending a confirmation link to your new address.');
    expect(page.text).not.toContain(owner.email);
    const mails = await mailApp.mailsTo(owner.email);
    expect(mails.map((m) => m.subject)).toEqual(['Startup Platform: you already have an account']);
  });

  it('refuses a post without the CSRF token, changing nothing', async () => {
    const user = await createSignInUser(t.app);
    const browser = await signedIn(user);
    expect((await browser.post('/account/security/password', { current_password: user.password, new_password: 'something else long' })).status).toBe(403);
    expect((await signInAt(new BrowserSession(t.url), '/account', user)).status).toBe(200);
  });
});

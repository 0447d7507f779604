
import { formInputs } from '../helpers/account';
import { TestClock } from '../helpers/clock';
import { MailTestApp, startMailTestApp } from '../helpers/mail';
import { BrowserSession, createSignInUser, OAuthTestUser } from '../helpers/oauth';
import { postCode, postPassword, totpCode, turnOnAuthenticator } from '../helpers/second-factor';
import { TestApp } from '../helpers/test-app';

/**
 * The notice mails of sign-in changes (docs/second-factor.md, "Security events and notices"): turning the authenticator
 * app on or off and signing in with a recovery code each mail the account's address, in the language
 * of whoever made the change, through a real SMTP server; a refused change mails nothing. (The
 * passkeys' notices are read in the Chromium suite, which is where passkeys can be added.)
 */
describe('notice mails of sign-in changes (docs/second-factor.md)', () => {
  let t: TestApp;
  let clock: TestClock;
  let mailApp: MailTestApp;

  beforeAll(async () => {
    mailApp = await startMailTestApp({ SIGN_IN_MAX_FAILURES: '20' });
    ({ t, clock } = mailApp);
  });
  afterAll(() => mailApp?.close());

  const mailsTo = (user: OAuthTestUser) => mailApp.mailsTo(user.email);

  /** The password step and a code, in a new browser: signed in. */
  async function signInWithCode(user: OAuthTestUser, code: string, language = 'en') {
    const browser = new BrowserSession(t.url, language);
    const page = await browser.get('/oauth/sign-in?return_to=%2Faccount');
    const codePage = await postPassword(browser, page, user);
    const done = await postCode(browser, codePage, code);
    expect(done.status).toBe(303);
    return browser;
  }

  it('mails the owner when the authenticator app is turned on, in the language of the page (tr), with the way to the security page', async () => {
    const user = await createSignInUser(t.app);
    await turnOnAuthenticator(new BrowserSession(t.url, 'tr'), user, () => clock.now());
    const [mail] = await mailsTo(user);
    expect(mail.subject).toBe('Startup Platform: doğrulama uygulaması açıldı');
    expect(mail.text).toContain('doğrulama uygulaması açıldı: bundan sonra her parolalı oturum açmada bir kod istenecek.');
    expect(mail.links).toEqual([`${t.url}/account/security`, `${t.url}/account/forgot-password`]);
    expect(mail.html).toContain(`href="${t.url}/account/security"`);
    // The mail tells of the change; it holds nothing that would let a reader sign in.
    expect(mail.text).not.toMatch(/[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}/);
  });

  it('mails the owner when a recovery code signs in, and when the authenticator is turned off; a refused turn-off mails nothing', async () => {
    const user = await createSignInUser(t.app);
    const { secret, recoveryCodes } = await turnOnAuthenticator(new BrowserSession(t.url), user, () => clock.now());
    clock.advance(30_000);
    expect((await mailsTo(user)).map((m) => m.subject)).toEqual(['Startup Platform: authenticator app turned on']);

    // A current code is the everyday sign-in: no mail.
    await signInWithCode(user, totpCode(secret, clock.now()));
    expect(await mailsTo(user)).toHaveLength(1);

    const browser = await signInWithCode(user, recoveryCodes[0]);
    const recovery = (await mailsTo(user))[1];
    expect(recovery.subject).toBe('Startup Platform: a recovery code was used');
    expect(recovery.text).toContain('One of your recovery codes was used to sign in to your Startup Platform account.');
    expect(recovery.text).not.toContain(recoveryCodes[0]);

    const security = await browser.get('/account/security');
    const form = formInputs(security.text, '/account/security/authenticator/off');
    expect((await browser.post('/account/security/authenticator/off', { ...form, password: 'not the password' })).status).toBe(400);
    expect(await mailsTo(user)).toHaveLength(2);

    expect((await browser.post('/account/security/authenticator/off', { ...form, password: user.password })).status).toBe(303);
    const off = (await mailsTo(user))[2];
    expect(off.subject).toBe('Startup Platform: authenticator app turned off');
    expect(off.text).toContain('signing in no longer asks for a code');
    expect(off.text).toContain('If this was not you, reset your password now');
    expect(await mailsTo(user)).toHaveLength(3);
  });
});


import { OutboxRepository } from '../../src/mail/outbox.repository';
import { SecondFactorRepository } from '../../src/second-factor/second-factor.repository';
import { SecurityEventsService } from '../../src/security-events/security-events.service';
import { formInputs } from '../helpers/account';
import { TestClock } from '../helpers/clock';
import { MailTestApp, startMailTestApp } from '../helpers/mail';
import { BrowserSession, createSignInUser, OAuthTestUser } from '../helpers/oauth';
import { credential, postCode, postPassword, totpCode, turnOnAuthenticator } from '../helpers/second-factor';
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
  // Only this suite's outbox spies: the suite's clock is a spy too, and stays.
  const outboxSpies: jest.SpyInstance[] = [];
  afterEach(() => outboxSpies.splice(0).forEach((spy) => spy.mockRestore()));

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

  it('records and mails a recovery code used to turn the authenticator off, as one used to sign in', async () => {
    const user = await createSignInUser(t.app);
    const { secret, recoveryCodes } = await turnOnAuthenticator(new BrowserSession(t.url), user, () => clock.now());
    clock.advance(30_000);
    const browser = await signInWithCode(user, totpCode(secret, clock.now()));
    const security = await browser.get('/account/security');
    const off = await browser.post('/account/security/authenticator/off', { ...formInputs(security.text, '/account/security/authenticator/off'), code: recoveryCodes[0] });
    expect(off.status).toBe(303);
    expect(await eventsOf(user)).toEqual(['totp_disabled', 'recovery_code_used', 'totp_enabled']);
    expect((await mailsTo(user)).map((m) => m.subject)).toEqual([
      'Startup Platform: authenticator app turned on',
      'Startup Platform: a recovery code was used',
      'Startup Platform: authenticator app turned off',
    ]);
  });

  /** The outbox refuses its next write: the change's transaction fails after the change itself was written. */
  const failNextOutboxWrite = () => outboxSpies.push(jest.spyOn(t.app.get(OutboxRepository), 'enqueue').mockRejectedValueOnce(new Error('outbox write failed')));
  const eventsOf = async (user: OAuthTestUser) => (await t.app.get(SecurityEventsService).recent(user.id)).map((e) => e.type).filter((type) => type !== 'sign_in');

  it('writes a change, its security event and its notice in one transaction: rolled back, none of them; committed, all three', async () => {
    const user = await createSignInUser(t.app);
    // Turning on: the outbox fails after the setup was confirmed in the same transaction.
    const browser = new BrowserSession(t.url);
    failNextOutboxWrite();
    await expect(turnOnAuthenticator(browser, user, () => clock.now())).rejects.toThrow(/^confirm: 5\d\d/);
    expect(await t.app.get(SecondFactorRepository).unusedRecoveryCodes(user.id)).toBe(0);
    expect((await t.app.get(SecondFactorRepository).authenticatorOf(user.id))?.confirmedAt).toBeNull();
    expect(await eventsOf(user)).toEqual([]);
    expect(await mailsTo(user)).toEqual([]);

    // The setup still waits for its code: confirmed now, it commits with its event and notice.
    const setupPage = await browser.get('/account/security');
    const confirmed = await browser.post('/account/security/authenticator/confirm', {
      ...formInputs(setupPage.text, '/account/security/authenticator/confirm'),
      code: totpCode(credential(setupPage.text, 'totp_secret')!, clock.now() + 30_000),
    });
    expect(confirmed.status).toBe(303);
    const recoveryCodes = (credential((await browser.get(confirmed.location!.replace(/#.*$/, ''))).text, 'recovery_codes') ?? '').split(/\s+/);
    expect(recoveryCodes).toHaveLength(10);
    expect(await eventsOf(user)).toEqual(['totp_enabled']);
    expect((await mailsTo(user)).map((m) => m.subject)).toEqual(['Startup Platform: authenticator app turned on']);

    // A recovery code used to sign in: rolled back, the code still works and nothing was told.
    const signIn = new BrowserSession(t.url, 'en');
    const codePage = await postPassword(signIn, await signIn.get('/oauth/sign-in?return_to=%2Faccount'), user);
    failNextOutboxWrite();
    expect((await postCode(signIn, codePage, recoveryCodes[0])).status).toBeGreaterThanOrEqual(500);
    expect(await t.app.get(SecondFactorRepository).unusedRecoveryCodes(user.id)).toBe(10);
    expect(await eventsOf(user)).toEqual(['totp_enabled']);
    await signInWithCode(user, recoveryCodes[0]);
    expect(await t.app.get(SecondFactorRepository).unusedRecoveryCodes(user.id)).toBe(9);
    expect(await eventsOf(user)).toEqual(['recovery_code_used', 'totp_enabled']);
    expect(await mailsTo(user)).toHaveLength(2);

    // Turning off: rolled back, the authenticator stays on; committed, it is off with its event and notice.
    const page = await browser.get('/account/security');
    const form = formInputs(page.text, '/account/security/authenticator/off');
    failNextOutboxWrite();
    expect((await browser.post('/account/security/authenticator/off', { ...form, password: user.password })).status).toBeGreaterThanOrEqual(500);
    expect(await t.app.get(SecondFactorRepository).authenticatorOf(user.id)).not.toBeNull();
    expect(await eventsOf(user)).toEqual(['recovery_code_used', 'totp_enabled']);
    expect(await mailsTo(user)).toHaveLength(2);
    expect((await browser.post('/account/security/authenticator/off', { ...form, password: user.password })).status).toBe(303);
    expect(await t.app.get(SecondFactorRepository).authenticatorOf(user.id)).toBeNull();
    expect(await eventsOf(user)).toEqual(['totp_disabled', 'recovery_code_used', 'totp_enabled']);
    expect((await mailsTo(user)).map((m) => m.subject).at(-1)).toBe('Startup Platform: authenticator app turned off');
  });

  it('makes ten new recovery codes on the security page: every earlier one stops working, the new ones are shown once, the owner is told, and a rolled-back renewal changes nothing', async () => {
    const user = await createSignInUser(t.app);
    const browser = new BrowserSession(t.url, 'en');
    const { recoveryCodes: earlier } = await turnOnAuthenticator(browser, user, () => clock.now());
    const renew = async () => {
      const page = await browser.get('/account/security');
      expect(page.text).toContain('Make new codes');
      return browser.post('/account/security/authenticator/recovery-codes', formInputs(page.text, '/account/security/authenticator/recovery-codes'));
    };

    failNextOutboxWrite();
    expect((await renew()).status).toBeGreaterThanOrEqual(500);
    expect(await eventsOf(user)).toEqual(['totp_enabled']);
    expect(await mailsTo(user)).toHaveLength(1);

    const renewed = await renew();
    expect(renewed.status).toBe(303);
    const shown = await browser.get(renewed.location!.replace(/#.*$/, ''));
    const fresh = (credential(shown.text, 'recovery_codes') ?? '').split(/\s+/).filter(Boolean);
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => earlier.includes(code))).toBe(false);
    // Shown once: the next visit holds none.
    expect(credential((await browser.get('/account/security')).text, 'recovery_codes')).toBeUndefined();
    expect(await eventsOf(user)).toEqual(['recovery_codes_renewed', 'totp_enabled']);
    const notice = (await mailsTo(user)).at(-1)!;
    expect(notice.subject).toBe('Startup Platform: new recovery codes were made');
    expect(notice.text).toContain('the earlier ones no longer work');
    expect(notice.text).not.toContain(fresh[0]);

    // An earlier code no longer signs in; a new one does.
    const signIn = new BrowserSession(t.url, 'en');
    const codePage = await postPassword(signIn, await signIn.get('/oauth/sign-in?return_to=%2Faccount'), user);
    expect((await postCode(signIn, codePage, earlier[0])).status).toBe(400);
    await signInWithCode(user, fresh[0]);
    expect(await t.app.get(SecondFactorRepository).unusedRecoveryCodes(user.id)).toBe(9);
  });

  it('answers 409 and makes no codes for an account whose authenticator app is off', async () => {
    const user = await createSignInUser(t.app);
    const browser = new BrowserSession(t.url, 'en');
    const { codesPage } = await turnOnAuthenticator(browser, user, () => clock.now());
    const form = formInputs(codesPage.text, '/account/security/authenticator/recovery-codes');
    const page = await browser.get('/account/security');
    expect((await browser.post('/account/security/authenticator/off', { ...formInputs(page.text, '/account/security/authenticator/off'), password: user.password })).status).toBe(303);
    const refused = await browser.post('/account/security/authenticator/recovery-codes', form);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('The authenticator app is not on, so there are no recovery codes. Nothing was changed.');
    expect(await t.app.get(SecondFactorRepository).unusedRecoveryCodes(user.id)).toBe(0);
  });
});

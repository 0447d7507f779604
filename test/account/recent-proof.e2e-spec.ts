import { DataSource } from 'typeorm';
import { inTransaction } from '../../src/database/transaction';
import { Passkey } from '../../src/passkeys/passkey.entity';
import { PasskeysRepository } from '../../src/passkeys/passkeys.repository';
import { SecondFactorService } from '../../src/second-factor/second-factor.service';
import { SecurityEventsService } from '../../src/security-events/security-events.service';
import { UsersService } from '../../src/users/users.service';
import { formInputs, signInAt } from '../helpers/account';
import { TestClock } from '../helpers/clock';
import { MailTestApp, startMailTestApp } from '../helpers/mail';
import { BrowserResponse, BrowserSession, createSignInUser, OAuthTestUser } from '../helpers/oauth';
import { credential, totpCode, turnOnAuthenticator } from '../helpers/second-factor';
import { TestApp } from '../helpers/test-app';

const MAX_AGE_MS = 300_000;
const MAX_FAILURES = 4;

/**
 * SECURITY.md, "A borrowed session adding a way in": every change of how an account signs in needs a
 * proof given within REAUTH_MAX_AGE (a sign-in, the password, a passkey that verified its user, or a
 * current code). Past it the action's POST is refused, changes nothing, and shows the confirm-access
 * page, which takes the proof and returns to the page of the action.
 */
describe('recent proof for a change of how one signs in (SECURITY.md)', () => {
  let mailApp: MailTestApp;
  let t: TestApp;
  let clock: TestClock;
  let users: UsersService;
  let passkeys: PasskeysRepository;
  let secondFactor: SecondFactorService;
  let events: SecurityEventsService;

  beforeAll(async () => {
    mailApp = await startMailTestApp({ SIGN_IN_MAX_FAILURES: String(MAX_FAILURES), REAUTH_MAX_AGE: String(MAX_AGE_MS / 1000) });
    ({ t, clock } = mailApp);
    users = t.app.get(UsersService, { strict: false });
    passkeys = t.app.get(PasskeysRepository, { strict: false });
    secondFactor = t.app.get(SecondFactorService, { strict: false });
    events = t.app.get(SecurityEventsService, { strict: false });
  });
  afterAll(() => mailApp?.close());
  // Each test starts past the sign-in throttle's window (SIGN_IN_WINDOW), whatever the one before counted on this IP.
  afterEach(() => clock.advance(901_000));

  async function signedIn(user: OAuthTestUser, path = '/account/security', language = 'en'): Promise<BrowserSession> {
    const browser = new BrowserSession(t.url, language);
    expect((await signInAt(browser, path, user)).status).toBe(200);
    return browser;
  }

  /** The hidden inputs (CSRF token) of the form posting to `action` on `page`. */
  async function form(browser: BrowserSession, page: string, action: string): Promise<Record<string, string>> {
    return formInputs((await browser.get(page)).text, action);
  }

  /** The answer of a refused action: 403, nothing changed, and the confirm-access form returning to `page`. */
  function expectAsked(response: BrowserResponse, page: string): void {
    expect(response.status).toBe(403);
    expect(response.text).toContain('This action needs a recent confirmation. Nothing changed.');
    const inputs = formInputs(response.text, '/account/confirm-access');
    expect(inputs.return_to).toBe(page);
    expect(response.text).toContain('name="current_password"');
  }

  /** Gives the password on the confirm-access page the refused action showed; resolves with the page returned to. */
  async function confirmWithPassword(browser: BrowserSession, asked: BrowserResponse, password: string): Promise<BrowserResponse> {
    const confirmed = await browser.post('/account/confirm-access', { ...formInputs(asked.text, '/account/confirm-access'), current_password: password });
    expect(confirmed.status).toBe(303);
    return browser.get(confirmed.location!);
  }

  async function addPasskeyRow(userId: number, id = `pk-${userId}-${Math.random().toString(36).slice(2)}`): Promise<void> {
    await inTransaction(t.app.get(DataSource), (tx) => passkeys.insert(tx, Object.assign(new Passkey(), { id, userId, publicKey: 'AAAA', counter: 0, transports: null, name: 'Laptop', createdAt: clock.now(), lastUsedAt: null })));
  }

  describe('past REAUTH_MAX_AGE, each action is refused and changes nothing', () => {
    it('changing the password, even with the right current_password in the form', async () => {
      const user = await createSignInUser(t.app);
      const browser = await signedIn(user);
      const inputs = await form(browser, '/account/security', '/account/security/password');
      clock.advance(MAX_AGE_MS + 1);
      const refused = await browser.post('/account/security/password', { ...inputs, current_password: user.password, new_password: 'a new long sentence here' });
      expectAsked(refused, '/account/security');
      expect(await users.authenticate(user.email, user.password)).not.toBeNull();

      const back = await confirmWithPassword(browser, refused, user.password);
      expect(back.text).toContain('name="new_password"');
      const done = await browser.post('/account/security/password', { ...formInputs(back.text, '/account/security/password'), current_password: user.password, new_password: 'a new long sentence here' });
      expect(done.status).toBe(303);
      expect(await users.authenticate(user.email, 'a new long sentence here')).not.toBeNull();
    });

    it('changing the address: no link is mailed', async () => {
      const user = await createSignInUser(t.app);
      const browser = await signedIn(user);
      const inputs = await form(browser, '/account/security', '/account/security/email');
      clock.advance(MAX_AGE_MS + 1);
      const newEmail = `moved-${user.id}@example.com`;
      const refused = await browser.post('/account/security/email', { ...inputs, current_password: user.password, new_email: newEmail });
      expectAsked(refused, '/account/security');
      expect(await mailApp.mailsTo(newEmail)).toHaveLength(0);

      const back = await confirmWithPassword(browser, refused, user.password);
      const sent = await browser.post('/account/security/email', { ...formInputs(back.text, '/account/security/email'), current_password: user.password, new_email: newEmail });
      expect([sent.status, sent.location]).toEqual([303, '/account/security?done=email_link_sent']);
      expect(await mailApp.mailsTo(newEmail)).toHaveLength(1);
    });

    it('adding a passkey: no row, and the security page offers no registration options until a proof is given', async () => {
      const user = await createSignInUser(t.app);
      const browser = await signedIn(user);
      const inputs = await form(browser, '/account/security', '/account/security/passkeys');
      clock.advance(MAX_AGE_MS + 1);
      const refused = await browser.post('/account/security/passkeys', { ...inputs, name: 'Theirs', credential: '{"id":"x"}' });
      expectAsked(refused, '/account/security');
      expect(await passkeys.ofUser(user.id)).toHaveLength(0);

      const page = await browser.get('/account/security');
      expect(page.text).not.toContain('id="passkey-create"');
      expect(page.text).not.toContain('action="/account/security/passkeys"');
      expect(page.text).toContain('href="/account/confirm-access?return_to=%2Faccount%2Fsecurity"');
      const back = await confirmWithPassword(browser, refused, user.password);
      expect(back.text).toContain('id="passkey-create"');
      // Past the guard now: the made-up credential is the handler's to refuse.
      const checked = await browser.post('/account/security/passkeys', { ...formInputs(back.text, '/account/security/passkeys'), name: 'Mine', credential: '{"id":"x"}' });
      expect(checked.status).toBe(400);
    });

    it('removing a passkey: the row stays', async () => {
      const user = await createSignInUser(t.app);
      await addPasskeyRow(user.id);
      await addPasskeyRow(user.id);
      const browser = await signedIn(user);
      const [first] = await passkeys.ofUser(user.id);
      const inputs = await form(browser, '/account/security', `/account/security/passkeys/${first.id}/remove`);
      clock.advance(MAX_AGE_MS + 1);
      const refused = await browser.post(`/account/security/passkeys/${first.id}/remove`, inputs);
      expectAsked(refused, '/account/security');
      expect(await passkeys.ofUser(user.id)).toHaveLength(2);

      const back = await confirmWithPassword(browser, refused, user.password);
      const removed = await browser.post(`/account/security/passkeys/${first.id}/remove`, formInputs(back.text, `/account/security/passkeys/${first.id}/remove`));
      expect(removed.status).toBe(303);
      expect(await passkeys.ofUser(user.id)).toHaveLength(1);
    });

    it('setting up the authenticator app: it stays off, and no secret is made', async () => {
      const user = await createSignInUser(t.app);
      const browser = await signedIn(user);
      const inputs = await form(browser, '/account/security', '/account/security/authenticator');
      clock.advance(MAX_AGE_MS + 1);
      const refused = await browser.post('/account/security/authenticator', inputs);
      expectAsked(refused, '/account/security');
      expect((await secondFactor.stateOf((await users.findById(user.id))!)).state).toBe('off');

      const back = await confirmWithPassword(browser, refused, user.password);
      expect((await browser.post('/account/security/authenticator', formInputs(back.text, '/account/security/authenticator'))).status).toBe(303);
      expect(credential((await browser.get('/account/security')).text, 'totp_secret')).toMatch(/^[A-Z2-7]{32}$/);
    });

    it('confirming a setup (the new recovery codes): still pending, and its secret is not shown past the window', async () => {
      const user = await createSignInUser(t.app);
      const browser = await signedIn(user);
      await browser.post('/account/security/authenticator', await form(browser, '/account/security', '/account/security/authenticator'));
      const setup = await browser.get('/account/security');
      const secret = credential(setup.text, 'totp_secret')!;
      const inputs = formInputs(setup.text, '/account/security/authenticator/confirm');
      clock.advance(MAX_AGE_MS + 1);
      // A borrower opening the page of a setup left pending reads no secret and no QR code.
      const borrowed = await browser.get('/account/security');
      expect(credential(borrowed.text, 'totp_secret')).toBeUndefined();
      expect(borrowed.text).not.toContain('<figure class="qr"');
      expect(borrowed.text).toContain('id="authenticator-confirm-first"');

      const refused = await browser.post('/account/security/authenticator/confirm', { ...inputs, code: totpCode(secret, clock.now()) });
      expectAsked(refused, '/account/security');
      expect(credential(refused.text, 'recovery_codes')).toBeUndefined();
      expect((await secondFactor.stateOf((await users.findById(user.id))!)).state).toBe('pending');
    });

    it('making new recovery codes: the earlier ones keep working and none are shown; after the password, new ones are made', async () => {
      const user = await createSignInUser(t.app);
      const browser = new BrowserSession(t.url);
      const { recoveryCodes } = await turnOnAuthenticator(browser, user, () => clock.now());
      const inputs = await form(browser, '/account/security', '/account/security/authenticator/recovery-codes');
      clock.advance(MAX_AGE_MS + 1);
      const refused = await browser.post('/account/security/authenticator/recovery-codes', inputs);
      expectAsked(refused, '/account/security');
      expect(credential(refused.text, 'recovery_codes')).toBeUndefined();
      expect((await events.recent(user.id)).map((e) => e.type)).not.toContain('recovery_codes_renewed');

      const back = await confirmWithPassword(browser, refused, user.password);
      const renewed = await browser.post('/account/security/authenticator/recovery-codes', formInputs(back.text, '/account/security/authenticator/recovery-codes'));
      expect(renewed.status).toBe(303);
      const fresh = (credential((await browser.get('/account/security')).text, 'recovery_codes') ?? '').split(/\s+/).filter(Boolean);
      expect(fresh).toHaveLength(10);
      expect(fresh).not.toContain(recoveryCodes[0]);
    });

    it('turning the authenticator app off, even with a current code in the form: it stays on; a current code is a proof', async () => {
      const user = await createSignInUser(t.app);
      const browser = new BrowserSession(t.url);
      const { secret } = await turnOnAuthenticator(browser, user, () => clock.now());
      const inputs = await form(browser, '/account/security', '/account/security/authenticator/off');
      clock.advance(MAX_AGE_MS + 1);
      const refused = await browser.post('/account/security/authenticator/off', { ...inputs, code: totpCode(secret, clock.now()) });
      expectAsked(refused, '/account/security');
      expect(await secondFactor.required(user.id)).toBe(true);

      // The account has the app: the page asks for its code too, and a current one is a proof.
      const confirmed = await browser.post('/account/confirm-access', { ...formInputs(refused.text, '/account/confirm-access'), code: totpCode(secret, clock.now()) });
      expect(confirmed.status).toBe(303);
      expect(confirmed.location).toBe('/account/security');
      clock.advance(30_000);
      const back = await browser.get('/account/security');
      const off = await browser.post('/account/security/authenticator/off', { ...formInputs(back.text, '/account/security/authenticator/off'), code: totpCode(secret, clock.now()) });
      expect(off.status).toBe(303);
      expect(await secondFactor.required(user.id)).toBe(false);
    });

    it('deleting the account: it stays, and the confirm page returns to /account/data', async () => {
      const user = await createSignInUser(t.app);
      const browser = await signedIn(user, '/account/data');
      const inputs = await form(browser, '/account/data', '/account/data/delete');
      clock.advance(MAX_AGE_MS + 1);
      const refused = await browser.post('/account/data/delete', { ...inputs, current_password: user.password, confirm: 'yes' });
      expectAsked(refused, '/account/data');
      expect(await users.findById(user.id)).not.toBeNull();

      const back = await confirmWithPassword(browser, refused, user.password);
      expect(back.text).toContain('action="/account/data/delete"');
      const deleted = await browser.post('/account/data/delete', { ...formInputs(back.text, '/account/data/delete'), current_password: user.password, confirm: 'yes' });
      expect(deleted.status).toBe(200);
      expect(await users.findById(user.id)).toBeNull();
    });
  });

  it('counts a sign-in exactly REAUTH_MAX_AGE old as recent, and asks 1 ms later', async () => {
    const user = await createSignInUser(t.app);
    const browser = new BrowserSession(t.url);
    const signedInAt = clock.now();
    await signInAt(browser, '/account/security', user);
    await addPasskeyRow(user.id);
    await addPasskeyRow(user.id);
    const [first, second] = await passkeys.ofUser(user.id);
    clock.setTo(signedInAt + MAX_AGE_MS);
    const inTime = await browser.post(`/account/security/passkeys/${first.id}/remove`, await form(browser, '/account/security', `/account/security/passkeys/${first.id}/remove`));
    expect(inTime.status).toBe(303);
    const inputs = await form(browser, '/account/security', `/account/security/passkeys/${second.id}/remove`);
    clock.setTo(signedInAt + MAX_AGE_MS + 1);
    expectAsked(await browser.post(`/account/security/passkeys/${second.id}/remove`, inputs), '/account/security');
    expect((await passkeys.ofUser(user.id)).map((p) => p.id)).toEqual([second.id]);
  });

  it('counts a proof on the confirm page from its own instant: REAUTH_MAX_AGE after it still passes, 1 ms more asks again', async () => {
    const user = await createSignInUser(t.app);
    const browser = await signedIn(user);
    clock.advance(MAX_AGE_MS * 3);
    const page = await browser.get('/account/confirm-access?return_to=%2Faccount%2Fsecurity');
    expect(page.status).toBe(200);
    const provenAt = clock.now();
    const confirmed = await browser.post('/account/confirm-access', { ...formInputs(page.text, '/account/confirm-access'), current_password: user.password });
    expect(confirmed.status).toBe(303);
    clock.setTo(provenAt + MAX_AGE_MS);
    expect((await browser.post('/account/security/authenticator', await form(browser, '/account/security', '/account/security/authenticator'))).status).toBe(303);
    const inputs = await form(browser, '/account/security', '/account/security/authenticator/off');
    clock.setTo(provenAt + MAX_AGE_MS + 1);
    expectAsked(await browser.post('/account/security/authenticator/off', inputs), '/account/security');
  });

  it('refuses a wrong password on the confirm page as a failed sign-in: recorded, and throttled with the sign-in throttle', async () => {
    const user = await createSignInUser(t.app);
    const browser = await signedIn(user);
    clock.advance(MAX_AGE_MS + 1);
    const page = await browser.get('/account/confirm-access?return_to=%2Faccount%2Fsecurity');
    const inputs = formInputs(page.text, '/account/confirm-access');
    for (let i = 0; i < MAX_FAILURES; i++) {
      const wrong = await browser.post('/account/confirm-access', { ...inputs, current_password: `not it ${i}` });
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain('The password is not right. Nothing changed.');
      expect(wrong.text).toContain('aria-invalid="true"');
    }
    const failed = (await events.recent(user.id, 50)).filter((e) => e.type === 'sign_in_failed');
    expect(failed).toHaveLength(MAX_FAILURES);
    // Past the limit even the right password is refused unchecked, and the proof is not recorded.
    const throttled = await browser.post('/account/confirm-access', { ...inputs, current_password: user.password });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expectAsked(await browser.post('/account/security/authenticator', await form(browser, '/account/security', '/account/security/authenticator')), '/account/security');
  });

  it('returns only to a page of this site: another host in return_to returns to /account', async () => {
    const user = await createSignInUser(t.app);
    const browser = await signedIn(user);
    const page = await browser.get('/account/confirm-access?return_to=%2F%2Fevil.example%2Faccount');
    const inputs = formInputs(page.text, '/account/confirm-access');
    expect(inputs.return_to).toBe('/account');
    const confirmed = await browser.post('/account/confirm-access', { ...inputs, return_to: 'https://evil.example/account', current_password: user.password });
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe('/account');
  });

  it('refuses a confirmation without the CSRF token, and a code from an account without the authenticator app', async () => {
    const user = await createSignInUser(t.app);
    const browser = await signedIn(user);
    clock.advance(MAX_AGE_MS + 1);
    const page = await browser.get('/account/confirm-access?return_to=%2Faccount%2Fsecurity');
    expect(page.text).not.toContain('name="code"');
    const inputs = formInputs(page.text, '/account/confirm-access');
    expect((await browser.post('/account/confirm-access', { return_to: '/account/security', current_password: user.password })).status).toBe(403);
    expect((await browser.post('/account/confirm-access', { ...inputs, code: '123456' })).status).toBe(400);
    expectAsked(await browser.post('/account/security/authenticator', await form(browser, '/account/security', '/account/security/authenticator')), '/account/security');
  });

  it('is in Turkish by default', async () => {
    const user = await createSignInUser(t.app);
    const browser = await signedIn(user, '/account/security', 'tr');
    const page = await browser.get('/account/confirm-access?return_to=%2Faccount%2Fsecurity');
    expect(page.text).toContain('Siz olduğunuzu doğrulayın');
    expect(page.text).toContain('<html lang="tr"');
  });
});

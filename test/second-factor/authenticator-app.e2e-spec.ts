import { DataSource } from 'typeorm';
import { SecondFactorRepository } from '../../src/second-factor/second-factor.repository';
import { SecurityEventsService } from '../../src/security-events/security-events.service';
import { formInputs, signInAt } from '../helpers/account';
import { TestClock } from '../helpers/clock';
import { authorizePath, BrowserSession, createSignInUser, hiddenInputs, OAuthTestUser, registerClient } from '../helpers/oauth';
import { credential, postCode, postPassword, totpCode, turnOnAuthenticator } from '../helpers/second-factor';
import { startTestApp, TestApp } from '../helpers/test-app';

const MAX_FAILURES = 6;

/**
 * The authenticator app (docs/second-factor.md; SECURITY.md, "Second factor"): set up on
 * /account/security with codes computed by `otpauth` from the secret the page shows, then asked for
 * after every password sign-in, each code working once.
 */
describe('authenticator app (docs/second-factor.md)', () => {
  let t: TestApp;
  let clock: TestClock;
  let events: SecurityEventsService;

  beforeAll(async () => {
    t = await startTestApp({ SIGN_IN_MAX_FAILURES: String(MAX_FAILURES), SIGN_IN_WINDOW: '900' });
    clock = new TestClock(t.app);
    events = t.app.get(SecurityEventsService, { strict: false });
  });
  afterAll(async () => {
    clock.restore();
    await t.close();
  });

  /** A user with the authenticator on, and the clock moved to the next step so the next code is new. */
  async function withAuthenticator(): Promise<{ user: OAuthTestUser; secret: string; recoveryCodes: string[] }> {
    const user = await createSignInUser(t.app);
    const { secret, recoveryCodes } = await turnOnAuthenticator(new BrowserSession(t.url), user, () => clock.now());
    clock.advance(30_000);
    return { user, secret, recoveryCodes };
  }

  /** The password step on the account sign-in page, in a new browser: the code page. */
  async function passwordStep(user: OAuthTestUser, browser = new BrowserSession(t.url)) {
    const page = await browser.get('/oauth/sign-in?return_to=%2Faccount');
    const codePage = await postPassword(browser, page, user);
    return { browser, codePage };
  }

  it('has entities that declare their tables exactly as migrated: the schema builder wants no change to them', async () => {
    const { upQueries } = await t.app.get(DataSource).driver.createSchemaBuilder().log();
    const ours = upQueries.map((q) => q.query).filter((q) => /totp_authenticators|recovery_codes|passkeys|passkey_challenges_used/.test(q));
    expect(ours).toEqual([]);
  });

  describe('setting it up on /account/security', () => {
    it('shows a QR code and the base32 secret, confirms with a code from the app, and shows 10 recovery codes once', async () => {
      const user = await createSignInUser(t.app);
      const browser = new BrowserSession(t.url);
      const security = await signInAt(browser, '/account/security', user);
      expect(security.status).toBe(200);
      expect(security.text).toContain('Set up an authenticator app');
      // Linked from the account pages' navigation.
      expect((await browser.get('/account')).text).toContain('href="/account/security"');

      const { secret, recoveryCodes, setupPage, codesPage } = await turnOnAuthenticator(browser, user, () => clock.now());
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(setupPage.text).toMatch(/<figure class="qr" role="img" aria-label="[^"]+"><svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(setupPage.headers.get('content-security-policy')).toContain("img-src 'self'");

      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
      expect(codesPage.headers.get('cache-control')).toBe('no-store');
      // Shown once: a reload shows the page without them.
      const again = await browser.get('/account/security');
      expect(credential(again.text, 'recovery_codes')).toBeUndefined();
      expect(again.text).toContain('Unused recovery codes: 10.');
      expect((await events.recent(user.id)).map((e) => e.type)).toContain('totp_enabled');
    });

    it('stores the secret encrypted and the recovery codes as hashes only', async () => {
      const user = await createSignInUser(t.app);
      const { secret, recoveryCodes } = await turnOnAuthenticator(new BrowserSession(t.url), user, () => clock.now());
      const dataSource = t.app.get(DataSource);
      const [row] = await dataSource.query(`SELECT secret_encrypted FROM totp_authenticators WHERE user_id = ${user.id}`);
      expect(row.secret_encrypted).toMatch(/^v1\./);
      expect(row.secret_encrypted).not.toContain(secret);
      const stored = JSON.stringify(await dataSource.query(`SELECT * FROM recovery_codes WHERE user_id = ${user.id}`));
      for (const code of recoveryCodes) {
        expect(stored).not.toContain(code);
        expect(stored).not.toContain(code.replace(/-/g, ''));
      }
    });

    it('refuses a wrong confirmation code with a clear message and stays off', async () => {
      const user = await createSignInUser(t.app);
      const browser = new BrowserSession(t.url);
      const security = await signInAt(browser, '/account/security', user);
      await browser.post('/account/security/authenticator', formInputs(security.text, '/account/security/authenticator'));
      const setup = await browser.get('/account/security');
      const secret = credential(setup.text, 'totp_secret')!;
      const wrong = String((Number(totpCode(secret, clock.now())) + 1) % 1_000_000).padStart(6, '0');
      const refused = await browser.post('/account/security/authenticator/confirm', { ...formInputs(setup.text, '/account/security/authenticator/confirm'), code: wrong });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('This code is not correct or has been used before. Nothing was changed.');
      expect(await t.app.get(SecondFactorRepository).unusedRecoveryCodes(user.id)).toBe(0);
      // The password alone still signs in: nothing was turned on.
      const { codePage } = await passwordStep(user);
      expect(codePage.status).toBe(303);
    });

    it('answers a forged post (no CSRF token) with the 403 page and changes nothing', async () => {
      const user = await createSignInUser(t.app);
      const browser = new BrowserSession(t.url);
      await signInAt(browser, '/account/security', user);
      const forged = await browser.post('/account/security/authenticator', {});
      expect(forged.status).toBe(403);
      expect((await browser.get('/account/security')).text).not.toContain('data-credential="totp_secret"');
    });
  });

  describe('signing in with a password afterwards', () => {
    it('asks for field `code` after the password, and the password step alone is no sign-in', async () => {
      const { user, secret } = await withAuthenticator();
      const { browser, codePage } = await passwordStep(user);
      expect(codePage.status).toBe(200);
      expect(codePage.text).toContain('name="code"');
      expect(codePage.text).not.toContain('name="password"');
      expect(hiddenInputs(codePage.text).return_to).toBe('/account');
      // No signed-in session: the account page still asks for a sign-in.
      expect((await browser.get('/account')).status).toBe(303);
      expect((await events.recent(user.id)).filter((e) => e.type === 'sign_in')).toHaveLength(1); // the setup's own sign-in only

      const signedIn = await postCode(browser, codePage, totpCode(secret, clock.now()));
      expect(signedIn.status).toBe(303);
      expect(signedIn.location).toBe('/account');
      expect((await browser.get('/account')).status).toBe(200);
    });

    it('in the authorization flow, the password step issues no code and shows no consent page; the code does', async () => {
      const { user, secret } = await withAuthenticator();
      const client = await registerClient(t.app);
      const browser = new BrowserSession(t.url);
      const page = await browser.get(authorizePath({ response_type: 'code', client_id: client.clientId, redirect_uri: client.redirectUri, state: 's1' }));
      const codePage = await postPassword(browser, page, user);
      expect(codePage.status).toBe(200);
      expect(codePage.text).toContain('name="code"');
      expect(codePage.text).not.toContain('name="decision"');
      expect(hiddenInputs(codePage.text).transaction).toMatch(/^v1\./);
      // A new authorize in the same browser is still asked to sign in.
      const again = await browser.get(authorizePath({ response_type: 'code', client_id: client.clientId, redirect_uri: client.redirectUri, prompt: 'none' }));
      expect(new URL(again.location!).searchParams.get('error')).toBe('login_required');

      const consent = await postCode(browser, codePage, totpCode(secret, clock.now()));
      expect(consent.status).toBe(200);
      expect(consent.text).toContain('name="decision"');
    });

    it('refuses a replayed code: each code signs in once', async () => {
      const { user, secret } = await withAuthenticator();
      const code = totpCode(secret, clock.now());
      const first = await passwordStep(user);
      expect((await postCode(first.browser, first.codePage, code)).status).toBe(303);

      const second = await passwordStep(user);
      const replayed = await postCode(second.browser, second.codePage, code);
      expect(replayed.status).toBe(400);
      expect(replayed.text).toContain('This code is not correct or has been used before.');
      expect(replayed.text).toContain('name="code"');
      expect((await second.browser.get('/account')).status).toBe(303);
      // The next step's code works.
      clock.advance(30_000);
      expect((await postCode(second.browser, replayed, totpCode(secret, clock.now()))).status).toBe(303);
    });

    it('accepts the code of the step before and after (±1 step), and not two steps off', async () => {
      const { user, secret } = await withAuthenticator();
      clock.advance(120_000);
      const early = await passwordStep(user);
      expect((await postCode(early.browser, early.codePage, totpCode(secret, clock.now() - 30_000))).status).toBe(303);
      clock.advance(30_000);
      const late = await passwordStep(user);
      expect((await postCode(late.browser, late.codePage, totpCode(secret, clock.now() + 30_000))).status).toBe(303);
      clock.advance(120_000);
      const far = await passwordStep(user);
      expect((await postCode(far.browser, far.codePage, totpCode(secret, clock.now() + 60_000))).status).toBe(400);
    });

    it('takes a recovery code instead, once: a used one is refused', async () => {
      const { user, recoveryCodes } = await withAuthenticator();
      const first = await passwordStep(user);
      expect((await postCode(first.browser, first.codePage, recoveryCodes[3].toLowerCase())).status).toBe(303);
      expect((await events.recent(user.id)).map((e) => e.type)).toContain('recovery_code_used');

      const second = await passwordStep(user);
      const reused = await postCode(second.browser, second.codePage, recoveryCodes[3]);
      expect(reused.status).toBe(400);
      expect((await second.browser.get('/account')).status).toBe(303);
      const security = await signInAfterCode(second.browser, reused, recoveryCodes[4]);
      expect(security.text).toContain('Unused recovery codes: 8.');
    });

    it('throttles guessed codes like sign-in: past SIGN_IN_MAX_FAILURES, 429 with Retry-After, even for the right code', async () => {
      // Fresh windows: the failures of the other tests (same address) are over.
      clock.advance(901_000);
      const { user, secret } = await withAuthenticator();
      const step = await passwordStep(user);
      const browser = step.browser;
      let codePage = step.codePage;
      for (let i = 0; i < MAX_FAILURES; i++) {
        const guess = await postCode(browser, codePage, String(100000 + i));
        expect(guess.status).toBe(400);
        codePage = guess;
      }
      const limited = await postCode(browser, codePage, totpCode(secret, clock.now()));
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.text).toContain('Too many failed attempts.');
      // Another browser with the password gets no more guesses on this account.
      const other = await passwordStep(user);
      expect((await postCode(other.browser, other.codePage, totpCode(secret, clock.now()))).status).toBe(429);
      // Once the window is over, the right code signs in.
      clock.advance(901_000);
      const later = await passwordStep(user);
      expect((await postCode(later.browser, later.codePage, totpCode(secret, clock.now()))).status).toBe(303);
      clock.advance(901_000);
    });

    it('accepts the code step only in the session that gave the password, and only for 5 minutes', async () => {
      const { user, secret } = await withAuthenticator();
      const { codePage } = await passwordStep(user);
      // The sealed password step carried to another browser (its own session) is worthless there.
      const thief = new BrowserSession(t.url);
      const page = await thief.get('/oauth/sign-in?return_to=%2Faccount');
      const stolen = await thief.post('/oauth/sign-in', { ...hiddenInputs(page.text), second_factor: hiddenInputs(codePage.text).second_factor, code: totpCode(secret, clock.now()) });
      expect(stolen.status).toBe(400);
      expect(stolen.text).toContain('Your sign-in took too long. Please sign in again.');
      expect((await thief.get('/account')).status).toBe(303);

      const slow = await passwordStep(user);
      clock.advance(5 * 60_000 + 1);
      const expired = await postCode(slow.browser, slow.codePage, totpCode(secret, clock.now()));
      expect(expired.status).toBe(400);
      expect(expired.text).toContain('name="password"');
    });
  });

  describe('turning it off', () => {
    it('needs a current code or the password; a wrong one changes nothing', async () => {
      const { user, secret } = await withAuthenticator();
      const { browser, codePage } = await passwordStep(user);
      await postCode(browser, codePage, totpCode(secret, clock.now()));
      const security = await browser.get('/account/security');
      const form = formInputs(security.text, '/account/security/authenticator/off');

      const refused = await browser.post('/account/security/authenticator/off', { ...form, code: '', password: 'not the password' });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('The code or password is not correct. Nothing was changed.');
      const noProof = await browser.post('/account/security/authenticator/off', form);
      expect(noProof.status).toBe(400);
      expect((await passwordStep(user)).codePage.status).toBe(200);

      clock.advance(30_000);
      const off = await browser.post('/account/security/authenticator/off', { ...form, code: totpCode(secret, clock.now()) });
      expect(off.status).toBe(303);
      expect(off.location).toBe('/account/security?done=authenticator_off');
      expect((await browser.get(off.location!)).text).toContain('The authenticator app was turned off.');
      expect((await events.recent(user.id)).map((e) => e.type)).toContain('totp_disabled');
      // The password alone signs in again.
      expect((await passwordStep(user)).codePage.status).toBe(303);
    });

    it('with the password', async () => {
      const { user, secret } = await withAuthenticator();
      const { browser, codePage } = await passwordStep(user);
      await postCode(browser, codePage, totpCode(secret, clock.now()));
      const security = await browser.get('/account/security');
      const off = await browser.post('/account/security/authenticator/off', { ...formInputs(security.text, '/account/security/authenticator/off'), password: user.password });
      expect(off.status).toBe(303);
      expect(await t.app.get(SecondFactorRepository).authenticatorOf(user.id)).toBeNull();
    });
  });

  /** Posts `code` on a code page and opens /account/security with the session it gives. */
  async function signInAfterCode(browser: BrowserSession, page: Awaited<ReturnType<typeof postCode>>, code: string) {
    const done = await postCode(browser, page, code);
    if (done.status !== 303) throw new Error(`code refused: ${done.status}`);
    return browser.get('/account/security');
  }
});

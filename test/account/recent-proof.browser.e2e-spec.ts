import { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { PasskeysRepository } from '../../src/passkeys/passkeys.repository';
import { SecondFactorService } from '../../src/second-factor/second-factor.service';
import { UsersService } from '../../src/users/users.service';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { TestClock } from '../helpers/clock';
import { createSignInUser, OAuthTestUser } from '../helpers/oauth';
import { checkPage } from '../helpers/pages';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;
const MAX_AGE_MS = 300_000;

const WORDS = {
  en: {
    email: 'Email address',
    password: 'Password',
    signIn: 'Sign in',
    title: 'Confirm it is you',
    yourPassword: 'Your password',
    confirm: 'Confirm',
    withPasskey: 'Confirm with a passkey',
    setUp: 'Set up an authenticator app',
    add: 'Add a passkey',
    added: 'The passkey was added.',
    wrong: 'The password is not right. Nothing changed.',
  },
  tr: {
    email: 'E-posta adresi',
    password: 'Parola',
    signIn: 'Oturum aç',
    title: 'Siz olduğunuzu doğrulayın',
    yourPassword: 'Parolanız',
    confirm: 'Doğrula',
    withPasskey: 'Geçiş anahtarıyla doğrula',
    setUp: 'Doğrulama uygulaması kur',
    add: 'Geçiş anahtarı ekle',
    added: 'Geçiş anahtarı eklendi.',
    wrong: 'Parola doğru değil. Hiçbir şey değişmedi.',
  },
} as const;

/**
 * The confirm-access page in Chromium (SECURITY.md, "A borrowed session adding a way in"): an action
 * past REAUTH_MAX_AGE shows it; the password (with JavaScript off too) or a passkey that verifies its
 * user (the DevTools virtual authenticator) brings the person back to the page, where the action works.
 */
describeInBrowser('confirm access in Chromium (SECURITY.md)', () => {
  let t: TestApp;
  let browser: Browser;
  let clock: TestClock;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp({ REAUTH_MAX_AGE: String(MAX_AGE_MS / 1000) }, { publicHost: 'localhost' }), launchBrowser()]);
    clock = new TestClock(t.app);
  }, 180_000);
  afterAll(async () => {
    clock?.restore();
    await browser?.close();
    await t?.close();
  });
  afterEach(async () => {
    await context?.close();
    // Past the sign-in throttle's window for the next test, whatever this one counted.
    clock.advance(901_000);
  });

  async function open(language: 'en' | 'tr', width: number, javaScriptEnabled = true): Promise<void> {
    context = await browser.newContext({ locale: language, viewport: { width, height: 900 }, javaScriptEnabled });
    page = await context.newPage();
  }

  async function signIn(user: OAuthTestUser, words: (typeof WORDS)['en' | 'tr']): Promise<void> {
    await page.goto(`${t.url}/account/security`);
    await page.getByLabel(words.email).fill(user.email);
    await page.getByLabel(new RegExp(`^${words.password}$`)).fill(user.password);
    await page.getByRole('button', { name: new RegExp(`^${words.signIn}$`) }).click();
    expect(new URL(page.url()).pathname).toBe('/account/security');
  }

  const cases = [
    ['en', 1280, true],
    ['tr', 390, true],
    ['en', 390, false],
    ['tr', 1280, false],
  ] as const;
  for (const [language, width, script] of cases) {
    it(`asks for the password before setting up the authenticator app, then returns to the page (${language}, ${width} px, JavaScript ${script ? 'on' : 'off'})`, async () => {
      const words = WORDS[language];
      await open(language, width, script);
      const user = await createSignInUser(t.app);
      await signIn(user, words);
      clock.advance(MAX_AGE_MS + 1);
      await page.getByRole('button', { name: words.setUp }).click();
      await page.getByRole('heading', { level: 1, name: words.title }).waitFor();
      const account = (await t.app.get(UsersService, { strict: false }).findById(user.id))!;
      expect(await t.app.get(SecondFactorService, { strict: false }).stateOf(account)).toEqual({ state: 'off' });
      // The passkey button needs the page's script: hidden without it.
      expect(await page.getByRole('button', { name: words.withPasskey }).isVisible()).toBe(script);
      await checkPage(page, `confirm-access-${language}-${width}${script ? '' : '-noscript'}`);

      await page.getByLabel(words.yourPassword).fill('not the password at all');
      await page.getByRole('button', { name: new RegExp(`^${words.confirm}$`) }).click();
      await page.getByText(words.wrong).waitFor();
      await checkPage(page, `confirm-access-${language}-${width}${script ? '' : '-noscript'}-wrong`);

      await page.getByLabel(words.yourPassword).fill(user.password);
      await page.getByRole('button', { name: new RegExp(`^${words.confirm}$`) }).click();
      expect(new URL(page.url()).pathname).toBe('/account/security');
      await page.getByRole('button', { name: words.setUp }).click();
      await page.locator('[data-credential="totp_secret"]').waitFor();
    });
  }

  describe('with a passkey', () => {
    let cdp: CDPSession;
    
    async function withAuthenticator(language: 'en' | 'tr', width: number): Promise<void> {
      await open(language, width);
      cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      (await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      }));
      // No conditional (autofill) request: the button is what these tests press.
      await page.addInitScript(() => {
        (globalThis as unknown as { PublicKeyCredential: { isConditionalMediationAvailable: () => Promise<boolean> } }).PublicKeyCredential.isConditionalMediationAvailable = async () => false;
      });
    }

    async function addPasskey(user: OAuthTestUser, words: (typeof WORDS)['en' | 'tr']): Promise<void> {
      await signIn(user, words);
      await page.getByRole('button', { name: words.add }).click();
      await page.getByText(words.added).waitFor();
    }

    it('takes a passkey that verified its user as the proof (the user-verification flag is checked in recent-proof.service.spec.ts)', async () => {
      const words = WORDS.en;
      await withAuthenticator('en', 1280);
      const user = await createSignInUser(t.app);
      await addPasskey(user, words);
      clock.advance(MAX_AGE_MS + 1);
      await page.goto(`${t.url}/account/security`);
      // No ceremony starts on the page past the window: a link to confirm first instead of the add button.
      expect(await page.getByRole('button', { name: words.add }).count()).toBe(0);
      await page.getByRole('button', { name: words.setUp }).click();
      await page.getByRole('heading', { level: 1, name: words.title }).waitFor();

      await checkPage(page, 'confirm-access-en-1280-passkey');
      await page.getByRole('button', { name: words.withPasskey }).click();
      await page.waitForURL(/\/account\/security$/);
      await page.getByRole('button', { name: words.setUp }).click();
      await page.locator('[data-credential="totp_secret"]').waitFor();
      expect(await t.app.get(PasskeysRepository, { strict: false }).ofUser(user.id)).toHaveLength(1);
    });

    it('on a phone in Turkish: the passkey button returns to the page it was asked from', async () => {
      const words = WORDS.tr;
      await withAuthenticator('tr', 390);
      const user = await createSignInUser(t.app);
      await addPasskey(user, words);
      clock.advance(MAX_AGE_MS + 1);
      await page.goto(`${t.url}/account/security`);
      await checkPage(page, 'security-tr-390-confirm-first');
      await page.locator('#passkey-confirm-first').click();
      await page.getByRole('heading', { level: 1, name: words.title }).waitFor();
      await checkPage(page, 'confirm-access-tr-390-passkey');
      await page.getByRole('button', { name: words.withPasskey }).click();
      await page.waitForURL(/\/account\/security$/);
      // The ceremony is offered again: the add button and its options are back on the page.
      await page.getByRole('button', { name: words.add }).waitFor();
      expect(await page.locator('#passkey-create').count()).toBe(1);
    });
  });
});

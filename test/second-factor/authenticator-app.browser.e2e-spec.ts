import { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { TestClock } from '../helpers/clock';
import { BrowserSession, authorizePath, createSignInUser, OAuthTestUser, registerClient } from '../helpers/oauth';
import { checkPage } from '../helpers/pages';
import { totpCode, turnOnAuthenticator } from '../helpers/second-factor';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

const WORDS = {
  en: { email: 'Email address', password: 'Password', signIn: 'Sign in', setUp: 'Set up an authenticator app', code: 'Code from the app', confirm: 'Confirm', signInCode: 'Code', continue: 'Continue', signOut: 'Sign out' },
  tr: { email: 'E-posta adresi', password: 'Parola', signIn: 'Oturum aç', setUp: 'Doğrulama uygulaması kur', code: 'Uygulamadaki kod', confirm: 'Onayla', signInCode: 'Kod', continue: 'Devam et', signOut: 'Oturumu kapat' },
} as const;

/**
 * The authenticator app in Chromium with JavaScript off, as a person sets it up and signs in with it
 * (docs/second-factor.md), in both languages, at a phone's width and a desktop's: every page is
 * screenshotted and passes axe-core.
 */
describeInBrowser('authenticator app in Chromium (docs/second-factor.md)', () => {
  let t: TestApp;
  let browser: Browser;
  let clock: TestClock;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    clock = new TestClock(t.app);
  }, 180_000);
  afterAll(async () => {
    clock?.restore();
    await browser?.close();
    await t?.close();
  });

  let context: BrowserContext;
  let page: Page;
  afterEach(async () => {
    await context?.close();
  });

  /** Screenshot, axe-core and the width: the check every page passes. */
  const check = (name: string) => checkPage(page, name);

  async function signInWithPassword(user: OAuthTestUser, words: (typeof WORDS)['en' | 'tr']) {
    await page.getByLabel(words.email).fill(user.email);
    await page.getByLabel(new RegExp(`^${words.password}$`)).fill(user.password);
    await page.getByRole('button', { name: new RegExp(`^${words.signIn}$`) }).click();
  }

  for (const [language, width] of [['en', 1280], ['tr', 390], ['en', 390], ['tr', 1280]] as const) {
    it(`sets it up and signs in with a code (${language}, ${width} px)`, async () => {
      const words = WORDS[language];
      const name = `second-factor-${language}-${width}`;
      context = await browser.newContext({ locale: language, javaScriptEnabled: false, viewport: { width, height: 900 } });
      page = await context.newPage();
      const user = await createSignInUser(t.app);

      await page.goto(`${t.url}/account/security`);
      await signInWithPassword(user, words);
      expect(new URL(page.url()).pathname).toBe('/account/security');
      await check(`${name}-security-off`);

      await page.getByRole('button', { name: words.setUp }).click();
      const secret = (await page.locator('[data-credential="totp_secret"]').textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await expect(page.locator('figure.qr svg').count()).resolves.toBe(1);
      await check(`${name}-setup`);

      await page.getByLabel(words.code).fill(totpCode(secret, clock.now()));
      await page.getByRole('button', { name: words.confirm, exact: true }).click();
      const codes = (await page.locator('[data-credential="recovery_codes"]').innerText()).split(/\s+/).filter(Boolean);
      expect(codes).toHaveLength(10);
      await check(`${name}-recovery-codes`);

      await page.getByRole('button', { name: words.signOut }).click();
      clock.advance(30_000);
      await page.goto(`${t.url}/account/security`);
      await signInWithPassword(user, words);
      expect(await page.locator('input[name="code"]').count()).toBe(1);
      await check(`${name}-code-step`);

      await page.getByLabel(new RegExp(`^${words.signInCode}$`)).fill('000000' === totpCode(secret, clock.now()) ? '111111' : '000000');
      await page.getByRole('button', { name: words.continue }).click();
      expect(await page.getByRole('alert').count()).toBe(1);
      await check(`${name}-code-wrong`);

      await page.getByLabel(new RegExp(`^${words.signInCode}$`)).fill(totpCode(secret, clock.now()));
      await page.getByRole('button', { name: words.continue }).click();
      expect(new URL(page.url()).pathname).toBe('/account/security');
      expect(await page.locator('[data-credential="recovery_codes"]').count()).toBe(0);
      await check(`${name}-security-on`);
    });
  }

  for (const [language, width] of [['en', 1280], ['tr', 390]] as const) {
    it(`steps a browser signed in with the password alone up to the code when an application asks for two factors (acr_values) (${language}, ${width} px)`, async () => {
      const words = WORDS[language];
      context = await browser.newContext({ locale: language, javaScriptEnabled: false, viewport: { width, height: 900 } });
      page = await context.newPage();
      await page.route('http://127.0.0.1:9/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Callback</title>' }));
      const user = await createSignInUser(t.app);
      await page.goto(`${t.url}/account/security`);
      await signInWithPassword(user, words);
      // The authenticator turned on elsewhere: this browser's sign-in is the password alone.
      const { secret } = await turnOnAuthenticator(new BrowserSession(t.url), user, () => clock.now());
      clock.advance(30_000);
      const rp = await registerClient(t.app, { scopes: ['openid'] });
      await page.goto(
        t.url +
          authorizePath({ response_type: 'code', client_id: rp.clientId, redirect_uri: rp.redirectUri, scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', acr_values: 'urn:startup-platform:acr:mfa' }),
      );
      await expect(page.locator('main p').first().textContent()).resolves.toContain(language === 'en' ? 'This application asks for a second factor.' : 'Bu uygulama ikinci bir doğrulama istiyor.');
      await check(`second-factor-${language}-${width}-step-up`);
      await page.getByLabel(new RegExp(`^${words.signInCode}$`)).fill(totpCode(secret, clock.now()));
      await page.getByRole('button', { name: words.continue }).click();
      await page.getByRole('button', { name: language === 'en' ? /^Allow/ : /^İzin ver/ }).click();
      await page.waitForURL(/127\.0\.0\.1:9\/callback\?code=/);
    });
  }
});

import { Browser, BrowserContext, Page } from 'playwright-core';
import { ClientsService } from '../../src/clients/clients.service';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { http } from '../helpers/http';
import { createSignInUser, OAuthTestClient, registerClient } from '../helpers/oauth';
import { checkPage } from '../helpers/pages';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/**
 * The pages of the Device Authorization Grant (RFC 8628 §3.3; docs/integrate-with-oauth.md, "Sign in from
 * a command-line tool") in Chromium with JavaScript off, in tr and en: the code page empty, pre-filled from
 * `verification_uri_complete` and after a wrong code, the consent page of a verified and of an unverified
 * application, the page after approving and after denying, and the page of an expired form. Each is screenshot to
 * test-results/screenshots/ and checked with axe-core; every page that refuses offers a way on.
 */
describeInBrowser('the device flow\'s pages in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let verified: OAuthTestClient;
  let unverified: OAuthTestClient;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    verified = await registerClient(t.app, { type: 'public', name: 'Startup CLI', scopes: ['openid', 'profile', 'read:startups'], deviceFlow: true });
    unverified = await registerClient(t.app, { type: 'public', name: 'Free Prizes TV', scopes: ['profile', 'read:startups'], deviceFlow: true });
    await t.app.get(ClientsService).setVerified(unverified.clientId, false);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(() => context?.close());

  async function open(locale: string, viewport = { width: 1024, height: 768 }) {
    context = await browser.newContext({ locale, javaScriptEnabled: false, viewport });
    page = await context.newPage();
  }

  /** Screenshot, axe-core and the width: the check every page passes. */
  const check = (name: string) => checkPage(page, name);

  async function start(client: OAuthTestClient, scope: string): Promise<{ user_code: string; verification_uri_complete: string; device_code: string }> {
    const response = await http(t.url, '/oauth/device_authorization', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: client.clientId, scope }).toString(),
    });
    expect(response.status).toBe(200);
    return response.body;
  }

  function poll(client: OAuthTestClient, deviceCode: string) {
    return http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: client.clientId, device_code: deviceCode }).toString(),
    });
  }

  /** From `verification_uri_complete` through the sign-in page to the consent page. */
  async function toConsent(verificationUriComplete: string) {
    const user = await createSignInUser(t.app);
    await page.goto(verificationUriComplete);
    await page.locator('button[type="submit"]').click();
    await page.getByLabel(/Email address|E-posta adresi/).fill(user.email);
    await page.getByLabel(/^(Password|Parola)$/).fill(user.password);
    await page.getByRole('button', { name: /^(Sign in|Oturum aç)$/ }).click();
    await page.locator('button[value="approve"]').waitFor();
  }

  describe.each([
    ['tr', 'tr-TR', { title: 'Cihazınızı bağlayın', wrong: 'Bu kod geçerli değil', unverified: 'doğrulanmamış', allowed: 'izin verdiniz', denied: 'reddettiniz' }],
    ['en', 'en-US', { title: 'Connect your device', wrong: 'This code is not valid', unverified: 'not verified by the operator', allowed: 'You allowed', denied: 'You denied' }],
  ])('in %s', (language, locale, words) => {
    it('shows the empty code page, on a desktop and a phone', async () => {
      await open(locale);
      const response = await page.goto(`${t.url}/device`);
      expect(response!.status()).toBe(200);
      await expect(page.locator('h1').textContent()).resolves.toBe(words.title);
      await expect(page.locator('#user_code').inputValue()).resolves.toBe('');
      await check(`device-code-${language}`);
      await context.close();
      await open(locale, { width: 360, height: 640 });
      await page.goto(`${t.url}/device`);
      await check(`device-code-${language}-phone`);
    }, 180_000);

    it('fills the code in from verification_uri_complete and still waits for the user', async () => {
      const started = await start(verified, 'profile');
      await open(locale);
      const response = await page.goto(started.verification_uri_complete);
      expect(response!.status()).toBe(200);
      await expect(page.locator('#user_code').inputValue()).resolves.toBe(started.user_code);
      // Nothing was decided by opening the link.
      expect((await poll(verified, started.device_code)).body.error).toBe('authorization_pending');
      await check(`device-code-prefilled-${language}`);
    }, 180_000);

    it('says a wrong code is wrong, keeps what was typed, and lets the user try again', async () => {
      await open(locale);
      await page.goto(`${t.url}/device`);
      await page.locator('#user_code').fill('zzzz-zzzz');
      const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.locator('button[type="submit"]').click()]);
      expect(response.status()).toBe(400);
      await expect(page.locator('#problem').textContent()).resolves.toContain(words.wrong);
      await expect(page.locator('#user_code').inputValue()).resolves.toBe('zzzz-zzzz');
      await expect(page.locator('#user_code').getAttribute('aria-invalid')).resolves.toBe('true');
      await check(`device-code-wrong-${language}`);
    }, 180_000);

    it('sends the user back to the code page when the form has expired', async () => {
      await open(locale);
      await page.goto(`${t.url}/device`);
      // The session (and with it the form's token) is gone, as after a long pause.
      await context.clearCookies();
      await page.locator('#user_code').fill('BCDF-GHJK');
      const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.locator('button[type="submit"]').click()]);
      expect(response.status()).toBe(403);
      await check(`device-form-expired-${language}`);
      await page.locator('main a[href="/device"]').click();
      await expect(page.locator('#user_code').count()).resolves.toBe(1);
    }, 180_000);

    it('names a verified application on the consent page and shows the code to compare; approving ends on the done page', async () => {
      const started = await start(verified, 'openid profile read:startups');
      await open(locale);
      await toConsent(started.verification_uri_complete);
      await expect(page.locator('#device-code').textContent()).resolves.toContain(started.user_code);
      await expect(page.locator('main').textContent()).resolves.toContain('Startup CLI');
      expect(await page.locator('#unverified').count()).toBe(0);
      // Nothing has the focus that Enter would press: the user reads the code first.
      expect(await page.evaluate(() => (globalThis as any).document.activeElement?.tagName)).toBe('BODY');
      await check(`device-consent-verified-${language}`);
      await page.locator('button[value="approve"]').click();
      await expect(page.locator('main [role="status"]').textContent()).resolves.toContain(words.allowed);
      await check(`device-done-approved-${language}`);
      // A way on from here: the account's connected apps, where the application is now listed.
      await expect(page.locator('main a[href="/account/apps"]').count()).resolves.toBe(1);
      expect((await poll(verified, started.device_code)).status).toBe(200);
    }, 180_000);

    it('warns about an unverified application on the consent page; denying ends on the done page', async () => {
      const started = await start(unverified, 'profile');
      await open(locale, { width: 360, height: 640 });
      await toConsent(started.verification_uri_complete);
      await expect(page.locator('#unverified').textContent()).resolves.toContain(words.unverified);
      expect(await page.evaluate(() => (globalThis as any).document.activeElement?.tagName)).toBe('BODY');
      await check(`device-consent-unverified-${language}`);
      await page.locator('button[value="deny"]').click();
      await expect(page.locator('main [role="alert"], main [role="status"]').first().textContent()).resolves.toContain(words.denied);
      await check(`device-done-denied-${language}`);
      await expect(page.locator('main a[href="/account"]').count()).resolves.toBe(1);
      expect((await poll(unverified, started.device_code)).body.error).toBe('access_denied');
    }, 180_000);
  });
});

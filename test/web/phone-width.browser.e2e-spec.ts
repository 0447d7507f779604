import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { ClientsService } from '../../src/clients/clients.service';
import { DeveloperService } from '../../src/developer/developer.service';
import { s256Challenge } from '../../src/oauth/pkce';
import { UsersService } from '../../src/users/users.service';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { http } from '../helpers/http';
import { authorizePath, registerClient } from '../helpers/oauth';
import { axeViolations, screenshot } from '../helpers/pages';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/** A phone's width in CSS pixels (an iPhone 12 to 15), and a desktop's. */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** Long names and addresses, as real ones are, so that the pages are seen to wrap them. */
const LONG_APP_NAME = 'Kuzey Anadolu Girişim Hızlandırıcısı Yatırımcı İlişkileri Paneli';
const LONG_REDIRECT = 'https://partner-relations.north-anatolia-accelerator.example/oauth2/callback/authorization-code';
const LONG_KEY_NAME = 'Nightly synchronisation of the startup directory into the data warehouse';
const LONG_USER_NAME = 'Ayşe Nur Karamanoğlu-Büyükyılmaz';
const PASSWORD = 'owner correct horse battery';

/** The application's own site: its local redirect URI answers with a plain page. */
async function startCallbackSite(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><html lang="en"><head><title>Callback</title></head><body><main><h1>Client callback</h1></main></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * Every page of the service at a phone's width (390 CSS px) in tr and en: none scrolls sideways
 * (the document is no wider than the window), and axe-core finds no violation. Each page is screenshot
 * at the phone's width and at a desktop's into test-results/screenshots/phone-*.png and desktop-*.png.
 * The data are as long as real data get: a long user name, application name, redirect URI and key name.
 */
describeInBrowser('every page at a phone\'s width (390 px), in tr and en', () => {
  let t: TestApp;
  let browser: Browser;
  let site: { server: Server; port: number };
  let callback: string;
  const owners: Record<string, { email: string; verifiedClientId: string; unverifiedClientId: string }> = {};
  let deviceClientId: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [t, browser, site] = await Promise.all([startTestApp(), launchBrowser(), startCallbackSite()]);
    callback = `http://127.0.0.1:${site.port}/callback`;
    for (const language of ['tr', 'en']) {
      const email = `${language}-owner-of-many-applications@north-anatolia-accelerator.example`;
      const owner = await t.app.get(UsersService).create({ email, name: LONG_USER_NAME, password: PASSWORD });
      const developer = t.app.get(DeveloperService);
      const actor = { userId: owner.id, ip: '2001:db8:85a3:8d3:1319:8a2e:370:7348' };
      const verified = await developer.registerApplication(actor, {
        name: LONG_APP_NAME,
        redirectUris: [callback, LONG_REDIRECT],
        type: 'confidential',
        scopes: ['openid', 'profile', 'email', 'read:startups'],
      });
      await t.app.get(ClientsService).setVerified(verified.client.clientId, true);
      const unverified = await developer.registerApplication(actor, { name: 'Free Prizes For Everyone Sweepstakes', redirectUris: [LONG_REDIRECT, callback], type: 'public', scopes: ['profile', 'read:startups'] });
      await developer.createApiKey(actor, LONG_KEY_NAME);
      owners[language] = { email, verifiedClientId: verified.client.clientId, unverifiedClientId: unverified.client.clientId };
    }
    deviceClientId = (await registerClient(t.app, { type: 'public', name: 'Startup Directory Command-Line Tool', scopes: ['profile', 'read:startups'], deviceFlow: true })).clientId;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    await t?.close();
  });
  afterEach(() => context?.close());

  async function open(locale: string): Promise<void> {
    context = await browser.newContext({ locale, viewport: PHONE, isMobile: true, hasTouch: true });
    page = await context.newPage();
  }

  /** The page as it is now: no wider than the phone, axe-clean, and screenshot at both widths. */
  async function measure(name: string): Promise<void> {
    const width = await page.evaluate(() => {
      const d = (globalThis as any).document;
      return { scroll: d.scrollingElement.scrollWidth as number, inner: (globalThis as any).innerWidth as number };
    });
    await screenshot(page, `phone-${name}`);
    // The layout viewport is the phone's own width (the page has a viewport), and nothing runs past it.
    expect([name, width.inner === PHONE.width && width.scroll <= width.inner, width]).toEqual([name, true, width]);
    expect([name, await axeViolations(page)]).toEqual([name, []]);
    await page.setViewportSize(DESKTOP);
    await screenshot(page, `desktop-${name}`);
    await page.setViewportSize(PHONE);
  }

  const authorizeUrl = (clientId: string, redirectUri: string, scope: string) =>
    t.url +
    authorizePath({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope,
      state: 'phone',
      code_challenge: s256Challenge('c'.repeat(43)),
      code_challenge_method: 'S256',
    });

  describe.each([
    ['tr', 'tr-TR', { signIn: 'Oturum aç' }],
    ['en', 'en-US', { signIn: 'Sign in' }],
  ])('in %s', (language, locale, words) => {
    it('fits the sign-in, consent, account, connected apps, developer portal and logout pages', async () => {
      await open(locale);
      await page.goto(`${t.url}/`);
      await measure(`front-${language}`);

      await page.goto(`${t.url}/oauth/sign-in?return_to=%2Faccount`);
      await measure(`sign-in-${language}`);
      await page.fill('input[name="email"]', owners[language].email);
      await page.fill('input[name="password"]', 'not the password');
      await page.getByRole('button', { name: words.signIn, exact: true }).click();
      await page.locator('.alert').waitFor();
      // After a wrong password the email is kept and the focus is where the mistake was.
      expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('password');
      await measure(`sign-in-refused-${language}`);
      await page.fill('input[name="password"]', PASSWORD);
      await Promise.all([page.waitForURL(`${t.url}/account`), page.getByRole('button', { name: words.signIn, exact: true }).click()]);
      await measure(`account-${language}`);

      await page.goto(authorizeUrl(owners[language].verifiedClientId, callback, 'openid profile email read:startups'));
      await page.locator('button[value="approve"]').waitFor();
      await measure(`consent-verified-${language}`);
      await Promise.all([page.waitForURL(`${callback}?**`), page.locator('button[value="approve"]').click()]);

      await page.goto(authorizeUrl(owners[language].unverifiedClientId, LONG_REDIRECT, 'profile read:startups'));
      await measure(`consent-unverified-${language}`);

      await page.goto(`${t.url}/account/apps`);
      await page.locator('li.card').first().waitFor();
      await measure(`connected-apps-${language}`);

      await page.goto(`${t.url}/account/developer`);
      await measure(`developer-portal-${language}`);

      await page.goto(`${t.url}/oauth/logout`);
      await measure(`logout-confirm-${language}`);
    });

    it('fits the device flow\'s pages', async () => {
      const started = await http(t.url, '/oauth/device_authorization', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: deviceClientId, scope: 'profile read:startups' }).toString(),
      });
      expect(started.status).toBe(200);
      await open(locale);
      await page.goto(`${t.url}/device`);
      await measure(`device-code-${language}`);
      await page.goto(started.body.verification_uri_complete);
      await page.locator('button[type="submit"]').click();
      await page.locator('input[name="password"]').waitFor();
      // The sign-in on the way to the device's consent says so, not "manage your account".
      await expect(page.locator('main p').first().textContent()).resolves.toBe(
        language === 'tr'
          ? 'Cihazınızı bağlamak için oturum açın; ardından cihazın hesabınızla neler yapabileceğini onaylayacaksınız.'
          : 'Sign in to connect your device; next you will confirm what it may do with your account.',
      );
      await measure(`device-sign-in-${language}`);
      await page.fill('input[name="email"]', owners[language].email);
      await page.fill('input[name="password"]', PASSWORD);
      await page.getByRole('button', { name: words.signIn, exact: true }).click();
      await page.locator('button[value="approve"]').waitFor();
      await measure(`device-consent-${language}`);
    });

    it('fits the interactive reference and its Authorize dialog', async () => {
      await open(locale);
      await page.goto(`${t.url}/docs`);
      await page.locator('.opblock').first().waitFor();
      const width = await page.evaluate(() => ({ scroll: (globalThis as any).document.scrollingElement.scrollWidth, inner: (globalThis as any).innerWidth }));
      await screenshot(page, `phone-docs-${language}`);
      expect(width).toEqual({ scroll: PHONE.width, inner: PHONE.width });
      await page.getByRole('button', { name: /Authorize/ }).first().click();
      const dialog = page.locator('.dialog-ux .modal-ux');
      await dialog.waitFor();
      await screenshot(page, `phone-docs-authorize-${language}`);
      const text = (await dialog.textContent()) ?? '';
      expect(text).not.toMatch(/unsupported scheme/i);
      // The oauth2 section (the one a visitor uses) comes first in the dialog.
      const first = await dialog.locator('.auth-container h4').first().textContent();
      expect(first).toMatch(/oauth2/);
      expect(await dialog.locator('.modal-ux-content').evaluate((el) => el.scrollTop)).toBe(0);
      expect(await page.evaluate(() => (globalThis as any).document.activeElement.closest('.auth-container')?.querySelector('h4')?.textContent)).toMatch(/oauth2/);
    });
  });
});

import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { DeveloperService } from '../../src/developer/developer.service';
import { s256Challenge } from '../../src/oauth/pkce';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { authorizePath, createSignInUser, OAuthTestUser } from '../helpers/oauth';
import { checkPage } from '../helpers/pages';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;
/** A long host, so that the pages are seen to wrap it on a phone. */
const FAR_REDIRECT = 'https://rewards.free-prizes-for-everyone.example/oauth/callback';

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
 * The pages of an unverified application (docs/integrate-with-oauth.md) in Chromium with JavaScript
 * off, in tr and en, on a desktop and a phone: the consent page's warning with the redirect host, and
 * the page that holds an authorization error with its link. Each is screenshot to
 * test-results/screenshots/ and checked with axe-core.
 */
describeInBrowser('an unverified application\'s pages in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let site: { server: Server; port: number };
  let callback: string;
  let clientId: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [t, browser, site] = await Promise.all([startTestApp(), launchBrowser(), startCallbackSite()]);
    callback = `http://127.0.0.1:${site.port}/callback`;
    const owner = await createSignInUser(t.app);
    const { client } = await t.app.get(DeveloperService).registerApplication(
      { userId: owner.id, ip: '203.0.113.9' },
      { name: 'Free Prizes', redirectUris: [FAR_REDIRECT, callback], type: 'confidential', scopes: ['profile', 'read:startups'] },
    );
    clientId = client.clientId;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    await t?.close();
  });
  afterEach(() => context?.close());

  async function open(locale: string, viewport = { width: 1024, height: 768 }) {
    context = await browser.newContext({ locale, javaScriptEnabled: false, viewport });
    page = await context.newPage();
  }

  /** Screenshot, axe-core and the width: the check every page passes. */
  const check = (name: string) => checkPage(page, name);

  const authorizeUrl = (redirectUri: string, extra: Record<string, string> = {}) =>
    t.url +
    authorizePath({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'profile read:startups',
      state: 'st@te',
      code_challenge: s256Challenge('c'.repeat(43)),
      code_challenge_method: 'S256',
      ...extra,
    });

  async function signIn(user: OAuthTestUser) {
    await page.getByLabel(/Email address|E-posta adresi/).fill(user.email);
    await page.getByLabel(/^(Password|Parola)$/).fill(user.password);
    await page.getByRole('button', { name: /^(Sign in|Oturum aç)$/ }).click();
  }

  describe.each([
    ['tr', 'tr-TR', 'doğrulanmamış', 'adresine gönderileceksiniz', 'adresine dön'],
    ['en', 'en-US', 'not verified by the operator', 'you will then be sent to', 'Go back to'],
  ])('in %s', (language, locale, label, sentTo, goBack) => {
    for (const [device, viewport] of [
      ['desktop', { width: 1024, height: 768 }],
      ['phone', { width: 360, height: 640 }],
    ] as const) {
      it(`warns on the sign-in and consent pages and names the host (${device})`, async () => {
        await open(locale, viewport);
        await page.goto(authorizeUrl(FAR_REDIRECT));
        // The sign-in page says it too, before a password is given for the application.
        const before = await page.locator('#unverified').textContent();
        expect(before).toContain(label);
        expect(before).toContain(sentTo);
        await expect(page.locator('#unverified strong').textContent()).resolves.toBe('rewards.free-prizes-for-everyone.example');
        await check(`sign-in-unverified-${language}-${device}`);
        await signIn(await createSignInUser(t.app));
        await page.locator('button[value="approve"]').waitFor();
        const warning = await page.locator('#unverified').textContent();
        expect(warning).toContain(label);
        expect(warning).toContain(sentTo);
        await expect(page.locator('#unverified strong').textContent()).resolves.toBe('rewards.free-prizes-for-everyone.example');
        await check(`consent-unverified-${language}-${device}`);
      }, 180_000);
    }

    it('holds a crafted link\'s error on a page whose link the user may follow', async () => {
      await open(locale);
      const response = await page.goto(authorizeUrl(callback, { scope: 'profile admin' }));
      expect(response!.status()).toBe(400);
      expect(new URL(page.url()).origin).toBe(t.url);
      await expect(page.locator('main').textContent()).resolves.toContain(label === 'not verified by the operator' ? 'unverified' : label);
      await check(`held-error-${language}`);
      const link = page.getByRole('link', { name: new RegExp(goBack) });
      await Promise.all([page.waitForURL((url) => url.href.startsWith(callback)), link.click()]);
      const landed = new URL(page.url());
      expect(landed.searchParams.get('error')).toBe('invalid_scope');
      expect(landed.searchParams.get('state')).toBe('st@te');
      expect(landed.searchParams.get('iss')).toBe(t.url);
    }, 180_000);
  });
});

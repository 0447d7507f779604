import { Browser } from 'playwright-core';
import { axeViolations, screenshot } from '../helpers/pages';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/** The pages of RP-Initiated Logout (CONTRACT §7) in Chromium, in both languages, checked with axe-core. */
describeInBrowser('the logout pages in Chromium', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it.each([
    ['en', '/oauth/logout', 200, 'You are signed out'],
    ['tr', '/oauth/logout', 200, 'Oturumunuz kapatıldı'],
    ['en', '/oauth/logout?post_logout_redirect_uri=https%3A%2F%2Fevil.example%2F&client_id=nobody', 400, 'The sign-out request cannot be processed'],
    ['tr', '/oauth/logout?id_token_hint=not.a.token&post_logout_redirect_uri=https%3A%2F%2Fevil.example%2F', 400, 'Oturum kapatma isteği işlenemedi'],
  ])('%s %s answers %i with a page axe-core finds no violation on', async (locale, path, status, heading) => {
    const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      const response = await page.goto(`${t.url}${path}`);
      expect(response?.status()).toBe(status);
      expect(page.url()).toBe(`${t.url}${path}`);
      await page.getByRole('heading', { name: heading }).waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      await screenshot(page, `logout-${locale}-${status}`);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

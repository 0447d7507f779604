import { Browser } from 'playwright-core';
import { axeViolations, screenshot } from '../helpers/pages';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { createSignInUser } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/** The pages of RP-Initiated Logout (docs/integrate-with-oauth.md, OpenID Connect) in Chromium, in both languages, checked with axe-core. */
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

  it.each([
    ['en', 'Sign out of Startup Platform?', 'Stay signed in', 'Sign out'],
    ['tr', 'Startup Platform oturumunuz kapatılsın mı?', 'Oturumum açık kalsın', 'Oturumu kapat'],
  ])('%s: asks a signed-in user without a hint to confirm, on a page axe-core finds no violation on; each button does what it says', async (locale, heading, stay, signOut) => {
    const user = await createSignInUser(t.app);
    const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(`${t.url}/oauth/sign-in?return_to=%2Faccount`);
      await page.fill('input[name="email"]', user.email);
      await page.fill('input[name="password"]', user.password);
      await Promise.all([page.waitForURL(`${t.url}/account`), page.press('input[name="password"]', 'Enter')]);

      await page.goto(`${t.url}/oauth/logout`);
      await page.getByRole('heading', { name: heading }).waitFor();
      await screenshot(page, `logout-confirm-${locale}`);
      expect(await axeViolations(page)).toEqual([]);
      await Promise.all([page.waitForURL(`${t.url}/account`), page.getByRole('button', { name: stay, exact: true }).click()]);

      await page.goto(`${t.url}/oauth/logout`);
      await page.getByRole('button', { name: signOut, exact: true }).click();
      await page.getByRole('heading', { name: locale === 'en' ? 'You are signed out' : 'Oturumunuz kapatıldı' }).waitFor();
      const account = await page.goto(`${t.url}/account`);
      expect(new URL(account!.url()).pathname).toBe('/oauth/sign-in');
    } finally {
      await context.close();
    }
  });
});

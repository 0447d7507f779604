import { Browser } from 'playwright-core';
import { axeViolations, screenshot } from '../helpers/pages';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { http } from '../helpers/http';
import { authorizePath, basicAuth, BrowserSession, createSignInUser, registerClient, runAuthorization } from '../helpers/oauth';
import { s256Challenge } from '../../src/oauth/pkce';
import { ClientsService } from '../../src/clients/clients.service';
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

  /** The ID token an unverified application got for a user who signed in to it once. */
  async function unverifiedApplicationHint(): Promise<string> {
    const verifier = 'h'.repeat(64);
    const app = await registerClient(t.app, { name: 'Kargo Takip', scopes: ['openid', 'profile'], redirectUris: ['https://kargo.example/cb'] });
    await t.app.get(ClientsService, { strict: false }).setVerified(app.clientId, false);
    const url = authorizePath({ response_type: 'code', client_id: app.clientId, redirect_uri: 'https://kargo.example/cb', scope: 'openid profile', code_challenge: s256Challenge(verifier), code_challenge_method: 'S256' });
    const code = (await runAuthorization(new BrowserSession(t.url), url, await createSignInUser(t.app))).searchParams.get('code')!;
    const res = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(app.clientId, app.clientSecret!) },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'https://kargo.example/cb', code_verifier: verifier }).toString(),
    });
    return res.body.id_token;
  }

  it.each([
    ['en', 390, 'You are signed out', 'Go back to kargo.example'],
    ['tr', 390, 'Oturumunuz kapatıldı', 'kargo.example adresine dön'],
    ['en', 1280, 'You are signed out', 'Go back to kargo.example'],
    ['tr', 1280, 'Oturumunuz kapatıldı', 'kargo.example adresine dön'],
  ])('%s at %i px: a visitor not signed in is shown the way back to an unverified application, not sent there, on a page axe-core finds no violation on', async (locale, width, heading, back) => {
    const hint = await unverifiedApplicationHint();
    const context = await browser.newContext({ locale, viewport: { width, height: 844 } });
    try {
      const page = await context.newPage();
      const path = `/oauth/logout?${new URLSearchParams({ id_token_hint: hint, post_logout_redirect_uri: 'https://kargo.example/cb', state: 's1' })}`;
      const response = await page.goto(`${t.url}${path}`);
      expect(response?.status()).toBe(200);
      expect(page.url()).toBe(`${t.url}${path}`);
      await page.getByRole('heading', { name: heading }).waitFor();
      expect(await page.getByRole('link', { name: back }).getAttribute('href')).toBe('https://kargo.example/cb?state=s1');
      await screenshot(page, `logout-held-${locale}-${width}`);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

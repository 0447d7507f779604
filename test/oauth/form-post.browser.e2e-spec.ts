import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { s256Challenge } from '../../src/oauth/pkce';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { authorizePath, createSignInUser, OAuthTestUser, registerClient } from '../helpers/oauth';
import { axeViolations, screenshot } from '../helpers/pages';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/** The application's own site: records every form posted to its callback and answers with a plain page. */
async function startCallbackSite(): Promise<{ server: Server; port: number; posts: Array<{ method: string; contentType: string; body: URLSearchParams }> }> {
  const posts: Array<{ method: string; contentType: string; body: URLSearchParams }> = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      // The browser's own GET of /favicon.ico is not a response.
      if (req.method === 'POST') posts.push({ method: req.method, contentType: String(req.headers['content-type']), body: new URLSearchParams(raw) });
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<!doctype html><html lang="en"><head><title>Callback</title></head><body><main><h1>Client callback</h1></main></body></html>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, posts };
}

/**
 * The form post response page (docs/integrate-with-oauth.md, "Form post response mode") in Chromium:
 * with JavaScript off the user presses its button, with JavaScript on its one hashed script posts it at
 * once; either way the application's callback receives code, state and iss in a POST body and none in
 * its URL. Screenshot in tr and en to test-results/screenshots/ and checked with axe-core.
 */
describeInBrowser('the form post response page in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let site: Awaited<ReturnType<typeof startCallbackSite>>;
  let callback: string;
  let clientId: string;
  let user: OAuthTestUser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [t, browser, site] = await Promise.all([startTestApp(), launchBrowser(), startCallbackSite()]);
    callback = `http://127.0.0.1:${site.port}/callback`;
    user = await createSignInUser(t.app);
    clientId = (await registerClient(t.app, { redirectUris: [callback], name: 'Form Post App' })).clientId;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    await t?.close();
  });
  afterEach(() => context?.close());

  const authorizeUrl = (extra: Record<string, string> = {}) =>
    t.url +
    authorizePath({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback,
      scope: 'profile read:startups',
      state: 'st@te',
      code_challenge: s256Challenge('c'.repeat(43)),
      code_challenge_method: 'S256',
      response_mode: 'form_post',
      prompt: 'consent',
      ...extra,
    });

  async function signInAndApprove(locale: string, javaScriptEnabled: boolean) {
    context = await browser.newContext({ locale, javaScriptEnabled, viewport: { width: 1024, height: 768 } });
    page = await context.newPage();
    await page.goto(authorizeUrl());
    await page.getByLabel(/Email address|E-posta adresi/).fill(user.email);
    await page.getByLabel(/^(Password|Parola)$/).fill(user.password);
    await page.getByRole('button', { name: /^(Sign in|Oturum aç)$/ }).click();
    await page.locator('button[value="approve"]').click();
  }

  function expectPosted(before: number) {
    expect(site.posts).toHaveLength(before + 1);
    const posted = site.posts[before];
    expect(posted.method).toBe('POST');
    expect(posted.contentType).toBe('application/x-www-form-urlencoded');
    expect([...posted.body.keys()]).toEqual(['code', 'state', 'iss']);
    expect(posted.body.get('code')).toMatch(/^sp_ac_/);
    expect(posted.body.get('state')).toBe('st@te');
    expect(posted.body.get('iss')).toBe(t.url);
    // The code never entered a URL: not the callback's, not the browser's history.
    expect(page.url()).toBe(callback);
  }

  describe.each([
    ['tr', 'tr-TR', 'Devam et', 'adresine geri gönderiliyorsunuz'],
    ['en', 'en-US', 'Continue', 'You are being sent back to'],
  ])('in %s', (language, locale, button, sending) => {
    it('with JavaScript off: shows the page, and its button posts the response', async () => {
      const before = site.posts.length;
      await signInAndApprove(locale, false);
      const continueButton = page.getByRole('button', { name: button });
      await continueButton.waitFor();
      await expect(page.locator('main').textContent()).resolves.toContain(sending);
      await expect(page.locator('main strong').textContent()).resolves.toBe(`127.0.0.1:${site.port}`);
      await screenshot(page, `form-post-${language}`);
      // Nothing was posted without the user: the script did not run.
      expect(site.posts).toHaveLength(before);
      // axe runs on a copy of the markup with JavaScript on, where the script would post the form away
      // from under it: it checks the page as a user without scripts sees it, script taken out.
      await page.evaluate(() => (globalThis as any).document.querySelector('script').remove());
      expect(await axeViolations(page)).toEqual([]);
      expect(site.posts).toHaveLength(before);
      await Promise.all([page.waitForURL(callback), continueButton.click()]);
      expectPosted(before);
    }, 180_000);
  });

  it('with JavaScript on: posts the response at once, without a click', async () => {
    const before = site.posts.length;
    const blocked: string[] = [];
    await signInAndApprove('en-US', true);
    page.on('console', (message) => message.type() === 'error' && blocked.push(message.text()));
    await page.waitForURL(callback);
    expectPosted(before);
    // The one script ran under the page's CSP: nothing was refused on the way.
    expect(blocked).toEqual([]);
  }, 180_000);
});

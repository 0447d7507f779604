import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { s256Challenge } from '../../src/oauth/pkce';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { http } from '../helpers/http';
import { authorizePath, basicAuth, createSignInUser, OAuthTestClient, OAuthTestUser, registerClient } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

const VERIFIER = 'b'.repeat(50);
const describeInBrowser = hasChromium ? describe : describe.skip;
// Runs in the page: the suites compile without DOM types.
const activeElementId = () => (globalThis as any).document.activeElement?.id;

/** A tiny site on its own port: the client's redirect URI, and (on `localhost`, another site) an attacker's page. */
async function startSite(): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (req.url?.startsWith('/attack')) {
      const target = new URL(req.url, 'http://x').searchParams.get('target')!;
      res.end(`<!doctype html><html><body><form method="post" action="${target}">
<input name="csrf_token"><input name="transaction"><input name="email"><input name="password">
<button type="submit">Win a prize</button></form></body></html>`);
      return;
    }
    res.end('<!doctype html><html><body><h1>Client callback</h1></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describeInBrowser('the sign-in and consent pages in Chromium (docs/integrate-with-oauth.md–3.6)', () => {
  let t: TestApp;
  let browser: Browser;
  let site: { server: Server; port: number };
  let client: OAuthTestClient;
  let user: OAuthTestUser;
  let callback: string;

  beforeAll(async () => {
    [t, browser, site] = await Promise.all([startTestApp(), launchBrowser(), startSite()]);
    callback = `http://127.0.0.1:${site.port}/callback`;
    client = await registerClient(t.app, { name: 'Startup Radar', redirectUris: [callback] });
    user = await createSignInUser(t.app);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    await t?.close();
  });

  let context: BrowserContext;
  let page: Page;
  let policyViolations: string[];

  async function open(locale = 'en-US', viewport = { width: 1024, height: 768 }) {
    context = await browser.newContext({ locale, viewport });
    page = await context.newPage();
    policyViolations = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) policyViolations.push(message.text());
    });
  }
  afterEach(async () => {
    await context?.close();
  });

  const authorizeUrl = (extra: Record<string, string> = {}) =>
    t.url +
    authorizePath({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: callback,
      scope: 'profile read:startups',
      state: 'st@te/ü',
      code_challenge: s256Challenge(VERIFIER),
      code_challenge_method: 'S256',
      ...extra,
    });

  async function signIn(password = user.password) {
    await page.goto(authorizeUrl({ prompt: 'consent' }));
    await page.getByLabel('Email address').fill(user.email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  it('signs in, approves and lands on the redirect URI with code, state and iss', async () => {
    await open();
    const response = await page.goto(authorizeUrl());
    expect(response!.status()).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.title()).toBe('Sign in');
    // Focus starts on the email field and moves in reading order.
    expect(await page.evaluate(activeElementId)).toBe('email');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(activeElementId)).toBe('password');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe('Sign in');

    await page.getByLabel('Email address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await page.getByRole('heading', { name: 'Allow access' }).waitFor();
    const text = await page.textContent('main');
    expect(text).toContain('Startup Radar would like to use your account to:');
    expect(text).toContain('See your name and email address');
    expect(text).toContain('Read startup data');

    await Promise.all([page.waitForURL(`${callback}?**`), page.getByRole('button', { name: 'Allow' }).click()]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('code')).toMatch(/^sp_ac_/);
    expect(landed.searchParams.get('state')).toBe('st@te/ü');
    expect(landed.searchParams.get('iss')).toBe(t.url);
    expect(await page.textContent('h1')).toBe('Client callback');
    // The inline stylesheet is allowed by its hash, and nothing else was blocked.
    expect(policyViolations).toEqual([]);

    const tokens = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(client.clientId, client.clientSecret!) },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: landed.searchParams.get('code')!, redirect_uri: callback, code_verifier: VERIFIER }).toString(),
    });
    expect(tokens.status).toBe(200);

    // The consent is remembered: the next authorization goes straight back.
    await page.goto(authorizeUrl({ state: 'again' }));
    expect(new URL(page.url()).searchParams.get('state')).toBe('again');
  });

  it('speaks Turkish to a Turkish browser and fits a phone screen', async () => {
    await open('tr-TR', { width: 360, height: 640 });
    await page.goto(authorizeUrl());
    expect(await page.getAttribute('html', 'lang')).toBe('tr');
    expect(await page.textContent('h1')).toBe('Oturum açın');
    await page.getByLabel('E-posta adresi').waitFor();
    await page.getByLabel('Parola').waitFor();
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  it('denies and lands on the redirect URI with access_denied', async () => {
    await open();
    await signIn();
    await Promise.all([page.waitForURL(`${callback}?**`), page.getByRole('button', { name: 'Deny' }).click()]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe('st@te/ü');
    expect(landed.searchParams.get('iss')).toBe(t.url);
    expect(landed.searchParams.has('code')).toBe(false);
  });

  it('shows the sign-in page again with a clear message for a wrong password', async () => {
    await open();
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/oauth/sign-in')), signIn('not the password')]);
    expect(response.status()).toBe(400);
    expect(await page.getByRole('alert').textContent()).toBe('The email address or password is incorrect.');
    expect(await page.getByLabel('Email address').inputValue()).toBe(user.email);
    expect(await page.getByLabel('Password').inputValue()).toBe('');
  });

  it('refuses a tampered CSRF token', async () => {
    await open();
    await page.goto(authorizeUrl());
    await page.locator('input[name="csrf_token"]').evaluate((input: { value: string }) => (input.value = 'tampered'));
    await page.getByLabel('Email address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/oauth/sign-in')), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
    expect(response.status()).toBe(403);
    expect(await page.getByRole('alert').textContent()).toBe('The form could not be verified; it may have expired.');
  });

  it('refuses a sign-in form posted from another site, even with valid hidden values', async () => {
    await open();
    await page.goto(authorizeUrl());
    const csrf = await page.locator('input[name="csrf_token"]').inputValue();
    const transaction = await page.locator('input[name="transaction"]').inputValue();
    // localhost is another site than 127.0.0.1.
    await page.goto(`http://localhost:${site.port}/attack?target=${encodeURIComponent(`${t.url}/oauth/sign-in`)}`);
    await page.fill('input[name="csrf_token"]', csrf);
    await page.fill('input[name="transaction"]', transaction);
    await page.fill('input[name="email"]', user.email);
    await page.fill('input[name="password"]', user.password);
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/oauth/sign-in')), page.click('button')]);
    expect(response.status()).toBe(403);
    expect(await page.getByRole('alert').textContent()).toBe('The form was sent from another site and was not accepted.');
  });

  it('cannot be framed', async () => {
    await open();
    const response = await page.goto(authorizeUrl());
    const headers = response!.headers();
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});

import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations, screenshot } from '../helpers/pages';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { http } from '../helpers/http';
import { createSignInUser, OAuthTestUser } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;
const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** The new application's own site: its redirect URI answers with a plain page. */
async function startCallbackSite(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><html lang="en"><head><title>Weather app</title></head><body><h1>Weather app callback</h1></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * The walk-through in Chromium, as a new developer does it with JavaScript on or off: sign in at
 * /account, register an application in the developer portal, run the authorization-code flow with it
 * through oauth4webapi, find it under Connected apps, revoke it and watch its token fail, create, use
 * and revoke an API key, sign out. Each page is screenshot to test-results/screenshots/ and checked
 * with axe-core.
 */
describeInBrowser('the developer portal in Chromium (README.md, Register your application)', () => {
  let t: TestApp;
  let browser: Browser;
  let site: { server: Server; port: number };
  let callback: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [t, browser, site] = await Promise.all([startTestApp(), launchBrowser(), startCallbackSite()]);
    callback = `http://127.0.0.1:${site.port}/callback`;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    await t?.close();
  });
  afterEach(() => context?.close());

  async function open(locale: string, javaScriptEnabled = true): Promise<void> {
    context = await browser.newContext({ locale, javaScriptEnabled, viewport: { width: 1100, height: 900 } });
    page = await context.newPage();
  }

  async function signIn(user: OAuthTestUser, labels: { email: string; password: string; submit: string }): Promise<void> {
    await page.goto(`${t.url}/account`);
    expect(new URL(page.url()).pathname).toBe('/oauth/sign-in');
    await page.getByLabel(labels.email).fill(user.email);
    await page.getByLabel(labels.password).fill(user.password);
    await page.getByRole('button', { name: labels.submit, exact: true }).click();
    await page.waitForURL(`${t.url}/account`);
  }

  /** Screenshots the page and runs axe-core on it (on a copy of its markup, so also with JavaScript off). */
  async function expectAccessible(name: string): Promise<void> {
    await screenshot(page, name);
    expect([name, await axeViolations(page)]).toEqual([name, []]);
  }

  const registerForm = () => page.locator('form[action="/account/developer/applications"]');
  const credential = (name: string) => page.locator(`[data-credential="${name}"]`).textContent();

  it('takes a new developer from sign-in to a working token and API key, and back out (en, JavaScript off)', async () => {
    const user = await createSignInUser(t.app);
    await open('en-US', false);
    await signIn(user, { email: 'Email address', password: 'Password', submit: 'Sign in' });
    await expectAccessible('01-account-en');

    await page.getByRole('link', { name: 'Developer portal' }).click();
    await page.getByRole('heading', { level: 1, name: 'Developer portal' }).waitFor();
    await expectAccessible('02-developer-portal-empty-en');

    // Register application.
    const form = registerForm();
    await form.getByLabel('Name', { exact: true }).fill('Weather app');
    await form.getByLabel('Redirect URIs').fill(callback);
    await form.getByLabel(/^Confidential/).check();
    await form.getByLabel(/^profile/).check();
    await form.getByLabel(/^read:startups/).check();
    await form.getByRole('button', { name: 'Register application' }).click();
    await page.getByRole('heading', { name: /credentials: Weather app/ }).waitFor();
    const clientId = (await credential('client_id'))!;
    const clientSecret = (await credential('client_secret'))!;
    expect(clientId).toMatch(/^sp_client_/);
    expect(clientSecret).toMatch(/^sp_cs_/);
    await expectAccessible('03-application-registered-en');

    // The authorization-code flow with the new client, through oauth4webapi.
    const issuer = new URL(t.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const client: oauth.Client = { client_id: clientId };
    const clientAuth = oauth.ClientSecretBasic(clientSecret);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback,
      scope: 'profile read:startups',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })) {
      authorizationUrl.searchParams.set(name, value);
    }
    await page.goto(authorizationUrl.href);
    await page.getByRole('heading', { name: 'Allow access' }).waitFor();
    await expectAccessible('04-consent-en');
    await Promise.all([page.waitForURL(`${callback}?**`), page.getByRole('button', { name: 'Allow' }).click()]);
    const params = oauth.validateAuthResponse(as, client, new URL(page.url()), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, callback, verifier, insecure),
    );
    const me = () => http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect((await me()).status).toBe(200);

    // Connected apps: the new application is there; revoking it kills its token.
    await page.goto(`${t.url}/account/apps`);
    const card = page.locator('li.card', { hasText: 'Weather app' });
    await card.waitFor();
    await expectAccessible('05-connected-apps-en');
    await card.locator('button').click();
    await page.waitForURL(`${t.url}/account/apps**`);
    await screenshot(page, '06-access-revoked-en');
    expect((await me()).status).toBe(401);

    // Create, use and revoke an API key.
    await page.goto(`${t.url}/account/developer`);
    await page.getByLabel('Key name').fill('Build server');
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByRole('heading', { name: 'Your new API key' }).waitFor();
    const key = (await credential('api_key'))!;
    expect(key).toMatch(/^sp_key_/);
    await expectAccessible('07-api-key-created-en');
    const industries = () => http(t.url, '/api/public/v1/industries', { headers: { 'x-api-key': key } });
    expect((await industries()).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke: Build server' }).click();
    await page.getByText('The API key was revoked.').waitFor();
    expect((await industries()).status).toBe(401);
    await expectAccessible('08-api-key-revoked-en');

    // Sign out: the portal asks for a sign-in again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/oauth\/sign-in/);
    await expectAccessible('09-signed-out-en');
    await page.goto(`${t.url}/account/developer`);
    expect(new URL(page.url()).pathname).toBe('/oauth/sign-in');
  });

  it('reads in Turkish, keeps focus visible, and passes axe-core with applications, keys and a refused form (tr)', async () => {
    const user = await createSignInUser(t.app);
    await open('tr-TR');
    await signIn(user, { email: 'E-posta adresi', password: 'Parola', submit: 'Oturum aç' });
    await page.goto(`${t.url}/account/developer`);
    await page.getByRole('heading', { level: 1, name: 'Geliştirici portalı' }).waitFor();
    await expectAccessible('10-developer-portal-empty-tr');

    await registerForm().getByLabel('Ad', { exact: true }).fill('Hava durumu');
    await registerForm().getByLabel('Yönlendirme adresleri').fill(`${callback}\nhttps://hava.example/geri`);
    await registerForm().getByLabel(/^Açık/).check();
    await registerForm().getByLabel(/^profile/).check();
    await registerForm().getByRole('button', { name: 'Uygulamayı kaydet' }).click();
    await page.locator('[data-credential="client_id"]').waitFor();
    expect(await page.locator('[data-credential="client_secret"]').count()).toBe(0);
    await expectAccessible('11-application-registered-tr');

    await page.getByLabel('Anahtarın adı').fill('Derleme sunucusu');
    await page.getByRole('button', { name: 'API anahtarı oluştur' }).click();
    await page.locator('[data-credential="api_key"]').waitFor();

    // A refused form says why beside it, and nothing is made.
    await registerForm().getByLabel('Ad', { exact: true }).fill('Kötü');
    await registerForm().getByLabel('Yönlendirme adresleri').fill('http://kotu.example/cb');
    await registerForm().getByLabel(/^profile/).check();
    await registerForm().getByRole('button', { name: 'Uygulamayı kaydet' }).click();
    await page.getByText('Hiçbir şey değiştirilmedi: http yalnızca localhost, 127.0.0.1 ve [::1] için kullanılabilir; https kullanın.').waitFor();
    await expectAccessible('12-developer-portal-refused-tr');

    // The keyboard reaches the edit disclosure, and the focused element is outlined.
    const summary = page.locator('summary', { hasText: 'Düzenle' });
    await summary.focus();
    const outline = await summary.evaluate((el) => (globalThis as any).getComputedStyle(el).outlineStyle);
    expect(outline).toBe('solid');
    await page.keyboard.press('Enter');
    await page.locator('form[action$="/edit"]').getByLabel('Ad', { exact: true }).waitFor();
    await expectAccessible('13-edit-open-tr');
  });
});

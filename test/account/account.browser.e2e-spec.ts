import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { authorizationCode, Provisioned, redeem } from '../helpers/flows';
import { BrowserSession, createSignInUser, OAuthTestUser } from '../helpers/oauth';
import { checkPage, focusOutline } from '../helpers/pages';
import { runCli } from '../helpers/processes';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;
const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** The client's redirect URI: a page on its own port that only says it was reached. */
async function startCallbackSite(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><html lang="en"><head><title>Callback</title></head><body><main><h1>Client callback</h1></main></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Registers a confidential client the way an operator does, with the CLI, against the app's database. */
async function cliClient(env: Record<string, string>, name: string, redirectUri: string): Promise<{ clientId: string; clientSecret: string }> {
  const created = await runCli(['clients:create', '--name', name, '--redirect-uri', redirectUri, '--scopes', 'profile read:startups', '--json'], env);
  if (created.status !== 0) throw new Error(`clients:create failed: ${created.stderr}`);
  return { clientId: created.json.client_id, clientSecret: created.json.client_secret };
}

describeInBrowser('the account pages in Chromium (README.md, Your account)', () => {
  let t: TestApp;
  let browser: Browser;
  let site: { server: Server; port: number };
  let callback: string;
  let as: oauth.AuthorizationServer;

  beforeAll(async () => {
    [t, browser, site] = await Promise.all([startTestApp(), launchBrowser(), startCallbackSite()]);
    callback = `http://127.0.0.1:${site.port}/callback`;
    const issuer = new URL(t.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    await t?.close();
  });

  let context: BrowserContext;
  let page: Page;
  let policyViolations: string[];

  /** JavaScript off: the pages must work without it (README.md, Your account). */
  async function open(locale: string) {
    context = await browser.newContext({ locale, javaScriptEnabled: false, viewport: { width: 1024, height: 768 } });
    page = await context.newPage();
    policyViolations = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) policyViolations.push(message.text());
    });
  }
  afterEach(async () => {
    await context?.close();
  });

  /** Screenshot, axe-core and the width: the check every page passes. */
  const check = (name: string) => checkPage(page, name);

  async function signIn(user: OAuthTestUser) {
    await page.getByLabel(/Email address|E-posta adresi/).fill(user.email);
    await page.getByLabel(/^(Password|Parola)$/).fill(user.password);
    await page.getByRole('button', { name: /^(Sign in|Oturum aç)$/ }).click();
  }

  it('signs in at /account, grants a CLI-registered app through oauth4webapi, sees it under Connected apps, revokes it, watches its token fail, and signs out', async () => {
    const user = await createSignInUser(t.app);
    const registered = await cliClient(t.env, 'Startup Radar', callback);
    const client: oauth.Client = { client_id: registered.clientId };
    const clientAuth = oauth.ClientSecretBasic(registered.clientSecret);
    await open('en-US');

    // An anonymous visitor of /account is sent to the sign-in page, and back after signing in.
    await page.goto(`${t.url}/account`);
    expect(new URL(page.url()).pathname).toBe('/oauth/sign-in');
    await expect(page.locator('h1').textContent()).resolves.toBe('Sign in');
    await signIn(user);
    await page.waitForURL(`${t.url}/account`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Your account');
    await expect(page.getByRole('cell', { name: 'Signed in' }).count()).resolves.toBe(1);

    // The application, driven by oauth4webapi, sends the browser to authorize; the user allows it.
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.search = new URLSearchParams({
      response_type: 'code',
      client_id: registered.clientId,
      redirect_uri: callback,
      scope: 'profile read:startups',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();
    await page.goto(authorizationUrl.toString());
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.href.startsWith(callback));
    const params = oauth.validateAuthResponse(as, client, new URL(page.url()), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, callback, verifier, insecure),
    );
    const meUrl = new URL(`${t.url}/api/public/v1/me`);
    expect((await oauth.protectedResourceRequest(tokens.access_token, 'GET', meUrl, undefined, undefined, insecure)).status).toBe(200);

    // Connected apps names it, with its scopes in plain words.
    await page.goto(`${t.url}/account/apps`);
    const card = page.locator('li.card', { hasText: 'Startup Radar' });
    await expect(card.textContent()).resolves.toContain('Read startup data');
    await expect(card.textContent()).resolves.toContain('See your name and email address');
    await check('connected-apps-en');

    // Revoke access: the notice, then the app's token and refresh token fail.
    await card.getByRole('button', { name: 'Revoke access: Startup Radar' }).click();
    await page.waitForURL(/\/account\/apps\?revoked=/);
    await expect(page.getByRole('status').textContent()).resolves.toBe('Startup Radar no longer has access to your account.');
    await expect(page.locator('li.card').count()).resolves.toBe(0);
    await check('connected-apps-revoked-en');
    // RFC 6750 §3.1: the library reads the 401's challenge and raises it.
    await expect(oauth.protectedResourceRequest(tokens.access_token, 'GET', meUrl, undefined, undefined, insecure)).rejects.toMatchObject({
      status: 401,
      cause: [expect.objectContaining({ scheme: 'bearer', parameters: expect.objectContaining({ error: 'invalid_token' }) })],
    });
    await expect(
      oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure)),
    ).rejects.toMatchObject({ error: 'invalid_grant' });

    // The account lists what happened, newest first.
    await page.goto(`${t.url}/account`);
    const events = await page.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(events.slice(0, 3)).toEqual([
      `An application's access revoked: Startup Radar (${registered.clientId})`,
      `Access given to an application: Startup Radar (${registered.clientId})`,
      'Signed in',
    ]);
    await check('account-en');

    // Keyboard: the first Tab lands on the navigation, with a visible focus ring.
    await page.keyboard.press('Tab');
    const focus = await focusOutline(page);
    expect(focus.tag).toBe('a');
    expect(focus.style).not.toBe('none');
    expect(focus.width).not.toBe('0px');

    // Sign out ends the session: the account asks for a sign-in again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/oauth\/sign-in\?return_to=%2Faccount$/);
    await page.goto(`${t.url}/account`);
    expect(new URL(page.url()).pathname).toBe('/oauth/sign-in');
    expect(policyViolations).toEqual([]);
  }, 180_000);

  describe.each([
    ['tr', 'tr-TR'],
    ['en', 'en-US'],
  ])('in %s', (language, locale) => {
    it('every page is accessible (axe-core, no violations), with JavaScript off, and screenshotted', async () => {
      const user = await createSignInUser(t.app);
      const registered = await cliClient(t.env, language === 'tr' ? 'Girişim Radarı' : 'Startup Radar', 'https://app.example/cb');
      const p: Provisioned = { user, client: { ...registered, redirectUri: 'https://app.example/cb' } };
      expect((await redeem(t.url, p, await authorizationCode(new BrowserSession(t.url), p))).status).toBe(200);
      await open(locale);

      await page.goto(`${t.url}/account/apps`);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe(language);
      await check(`sign-in-${language}`);
      await page.getByLabel(/Email address|E-posta adresi/).fill(user.email);
      await page.getByLabel(/^(Password|Parola)$/).fill('not the password');
      await page.getByRole('button', { name: /^(Sign in|Oturum aç)$/ }).click();
      await expect(page.getByRole('alert').count()).resolves.toBe(1);
      await check(`sign-in-failed-${language}`);

      await signIn(user);
      await page.waitForURL(`${t.url}/account/apps`);
      await expect(page.locator('li.card').count()).resolves.toBe(1);
      await check(`connected-apps-${language}`);

      await page.goto(`${t.url}/account`);
      await check(`account-${language}`);

      // The consent page, asked for again by the client (prompt=consent); leaving it changes nothing.
      const consent = new URL(`${t.url}/oauth/authorize`);
      consent.search = new URLSearchParams({
        response_type: 'code',
        client_id: registered.clientId,
        redirect_uri: 'https://app.example/cb',
        scope: 'profile read:startups',
        state: 'consent-page',
        code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
        code_challenge_method: 'S256',
        prompt: 'consent',
      }).toString();
      await page.goto(consent.href);
      await expect(page.locator('h1').textContent()).resolves.toBe(language === 'tr' ? 'Erişim izni' : 'Allow access');
      await check(`consent-${language}`);

      // A form whose CSRF token is tampered with on its way: the 403 page, and nothing changed.
      await page.goto(`${t.url}/account/apps`);
      await page.route('**/account/apps/revoke', (route) => route.continue({ postData: route.request().postData()!.replace(/csrf_token=[^&]*/, 'csrf_token=forged') }));
      await page.locator('li.card button').click();
      await expect(page.locator('h1').textContent()).resolves.toBe(language === 'tr' ? 'İşlem reddedildi' : 'Request refused');
      await check(`forbidden-${language}`);
      await page.goto(`${t.url}/account/apps`);
      await expect(page.locator('li.card').count()).resolves.toBe(1);
      expect(policyViolations).toEqual([]);
    }, 180_000);
  });
});

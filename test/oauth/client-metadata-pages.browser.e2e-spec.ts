import { Browser, BrowserContext, Page } from 'playwright-core';
import { s256Challenge } from '../../src/oauth/pkce';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { DocumentSite } from '../helpers/client-documents';
import { authorizePath, createSignInUser, OAuthTestUser } from '../helpers/oauth';
import { checkPage } from '../helpers/pages';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;
const CALLBACK = 'http://127.0.0.1:9/callback';

/**
 * The pages of a client identified by a URL (docs/integrate-with-oauth.md, "Clients identified by a URL")
 * in Chromium with JavaScript off, in tr and en, on a desktop and a phone: the consent page's unverified
 * warning with the host of the client_id in full, and the page of a document that cannot be used. Each is
 * screenshot to test-results/screenshots/ and checked with axe-core.
 */
describeInBrowser("a client metadata document's pages in Chromium", () => {
  let t: TestApp;
  let browser: Browser;
  let site: DocumentSite;
  let context: BrowserContext;
  let page: Page;
  let clientId: string;

  beforeAll(async () => {
    site = await new DocumentSite().start();
    [t, browser] = await Promise.all([startTestApp({ CLIENT_METADATA_ALLOW_LOOPBACK: 'true' }), launchBrowser()]);
    clientId = site.url('/oauth/agent-client-metadata.json');
    site.serve('/oauth/agent-client-metadata.json', { client_id: clientId, client_name: 'Araştırma Ajanı', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await site?.close();
  });
  afterEach(() => context?.close());

  async function open(locale: string, viewport: { width: number; height: number }) {
    context = await browser.newContext({ locale, javaScriptEnabled: false, viewport });
    page = await context.newPage();
  }

  const authorizeUrl = (id: string) =>
    t.url +
    authorizePath({ response_type: 'code', client_id: id, redirect_uri: CALLBACK, scope: 'profile read:startups', state: 'st', code_challenge: s256Challenge('c'.repeat(43)), code_challenge_method: 'S256' });

  async function signIn(user: OAuthTestUser) {
    await page.getByLabel(/Email address|E-posta adresi/).fill(user.email);
    await page.getByLabel(/^(Password|Parola)$/).fill(user.password);
    await page.getByRole('button', { name: /^(Sign in|Oturum aç)$/ }).click();
  }

  describe.each([
    ['tr', 'tr-TR', 'doğrulanmamış', 'sitesinden geliyor', 'uygulama bilgileri alınamadı'],
    ['en', 'en-US', 'not verified by the operator', 'come from the site', 'could not be fetched or are not valid'],
  ])('in %s', (language, locale, label, identifiedBy, refused) => {
    for (const [device, viewport] of [
      ['desktop', { width: 1024, height: 768 }],
      ['phone', { width: 360, height: 640 }],
    ] as const) {
      it(`shows the consent page of an unverified client with the host of its client_id (${device})`, async () => {
        await open(locale, viewport);
        await page.goto(authorizeUrl(clientId));
        await signIn(await createSignInUser(t.app));
        await page.locator('button[value="approve"]').waitFor();
        const warning = await page.locator('#unverified').textContent();
        expect(warning).toContain(label);
        expect(warning).toContain(identifiedBy);
        await expect(page.locator('#client-id-host strong').textContent()).resolves.toBe(`127.0.0.1:${site.port}`);
        await expect(page.locator('h1 + p + p bdi, #intro bdi').first().textContent()).resolves.toBe('Araştırma Ajanı');
        await checkPage(page, `consent-client-metadata-${language}-${device}`);
      }, 180_000);
    }

    it('shows a page, and redirects nowhere, for a document that cannot be used', async () => {
      await open(locale, { width: 360, height: 640 });
      const response = await page.goto(authorizeUrl(site.url('/oauth/missing-client-metadata.json')));
      expect(response!.status()).toBe(400);
      expect(new URL(page.url()).origin).toBe(t.url);
      const text = await page.locator('main').textContent();
      expect(text).toContain(refused);
      expect(text).toContain('answered HTTP 404, not 200');
      await checkPage(page, `client-metadata-refused-${language}`);
    }, 180_000);
  });
});

import { Browser, BrowserContext, Page } from 'playwright-core';
import { KNOWN_SCOPES } from '../../src/common/scopes';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { ServiceProcess, startService } from '../helpers/processes';
import { freePort, isolatedStorage } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/**
 * What a developer does on a fresh checkout: `npm start`, open /docs, "Authorize" with the demo account
 * printed at start, then "Try it out". The built service runs with its demo data; Swagger UI runs the
 * authorization-code flow with PKCE in a popup against the public `api-reference` client.
 */
describeInBrowser('the interactive reference in Chromium: Authorize, then Try it out', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let service: ServiceProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let demoPassword: string;
  const blocked: string[] = [];

  beforeAll(async () => {
    storage = await isolatedStorage();
    [service, browser] = await Promise.all([
      startService({ ...storage.env, SEED_DEMO_DATA: 'true', LOG_LEVEL: 'warn' }, await freePort()),
      launchBrowser(),
    ]);
    // The banner is written right after the server starts listening.
    for (let i = 0; i < 50 && !/Sign in as/.test(service.output()); i++) await new Promise((r) => setTimeout(r, 100));
    demoPassword = /Sign in as\s+demo@example\.com\s+\/\s+(\S+)/.exec(service.output())![1];
    context = await browser.newContext({ locale: 'en-US' });
    // Any resource refused by a Content-Security-Policy, on /docs, the popup's pages or the redirect page.
    context.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) blocked.push(message.text());
    });
    context.on('page', (popup) =>
      popup.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) blocked.push(message.text());
      }),
    );
    page = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await storage?.drop();
  });

  const operation = (path: string) => page.locator('.opblock').filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });

  async function execute(path: string): Promise<{ status: number; body: any; query: string }> {
    const op = operation(path);
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().method() === 'GET'),
      op.getByRole('button', { name: 'Execute' }).click(),
    ]);
    // What Swagger UI shows is what the API answered.
    const shown = op.locator('.live-responses-table .response .response-col_status');
    await shown.waitFor();
    expect((await shown.textContent())!.trim()).toBe(String(response.status()));
    const headers = await response.request().allHeaders();
    expect(headers.authorization).toMatch(/^Bearer sp_at_/);
    return { status: response.status(), body: await response.json(), query: new URL(response.url()).search };
  }

  it('authorizes with the demo account through the sign-in and consent pages, back to /docs', async () => {
    await page.goto(`${service.url}/docs`);
    await page.locator('.scheme-container').getByRole('button', { name: /Authorize/ }).click();
    const oauth = page.locator('.auth-container').filter({ has: page.locator('h4', { hasText: /^oauth2/ }) });
    // The reference client and every known scope are filled in already.
    expect(await oauth.locator('input[data-name="clientId"]').inputValue()).toBe('api-reference');
    expect(await oauth.locator('input[type="checkbox"]:checked').count()).toBe(KNOWN_SCOPES.length);

    const [popup] = await Promise.all([context.waitForEvent('page'), oauth.locator('button.authorize').click()]);
    await popup.getByLabel('Email address').fill('demo@example.com');
    await popup.getByLabel('Password').fill(demoPassword);
    await popup.getByRole('button', { name: 'Sign in', exact: true }).click();
    await popup.getByRole('heading', { name: 'Allow access' }).waitFor();
    expect(await popup.textContent('main')).toContain('API reference');
    const [token] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${service.url}/oauth/token`),
      popup.getByRole('button', { name: 'Allow' }).click(),
    ]);
    expect(token.status()).toBe(200);
    // The redirect page handed the code to /docs and closed itself.
    if (!popup.isClosed()) await popup.waitForEvent('close');

    await oauth.locator('button', { hasText: 'Logout' }).waitFor();
    expect(await oauth.textContent()).toContain('Authorized');
    await oauth.locator('button.btn-done').click();
    await page.locator('.modal-ux').waitFor({ state: 'detached' });
  }, 180_000);

  it('then "Try it out" on /me answers 200 with the demo user', async () => {
    const { status, body } = await execute('/api/public/v1/me');
    expect(status).toBe(200);
    expect(body.data).toEqual({ id: expect.any(Number), name: 'Demo Kullanıcı', email: 'demo@example.com' });
  }, 180_000);

  it('and on /startups answers 200 with the first page of the demo startups', async () => {
    const { status, body, query } = await execute('/api/public/v1/startups');
    // Only the documented defaults are filled in, no filter.
    expect(query).toBe('?limit=20&offset=0&sort=name');
    expect(status).toBe(200);
    expect(body.data).toHaveLength(20);
    expect(body.meta).toEqual({ total: expect.any(Number), limit: 20, offset: 0 });
    expect(body.meta.total).toBeGreaterThan(20);
  }, 180_000);

  it('loads /docs, the pages and the redirect page without anything refused by their Content-Security-Policy', () => {
    expect(blocked).toEqual([]);
  });
});

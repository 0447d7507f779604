import { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { createSignInUser } from '../helpers/oauth';
import { checkPage } from '../helpers/pages';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/** README.md, Your account: /account/data in Chromium: the download and the deletion. */
describeInBrowser('your data in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(async () => {
    await context?.close();
  });

  /** Screenshot, axe-core and the width: the check every page passes. */
  const check = (name: string) => checkPage(page, name);

  const cases = [
    { locale: 'en-US', width: 1024, size: 'desktop', nav: 'Your data', download: 'Download my data', confirm: 'I understand', del: 'Delete my account', deleted: 'Your account was deleted' },
    { locale: 'tr-TR', width: 390, size: 'phone', nav: 'Verileriniz', download: 'Verilerimi indir', confirm: 'anlıyorum', del: 'Hesabımı sil', deleted: 'Hesabınız silindi' },
    { locale: 'en-US', width: 390, size: 'phone', nav: 'Your data', download: 'Download my data', confirm: 'I understand', del: 'Delete my account', deleted: 'Your account was deleted' },
    { locale: 'tr-TR', width: 1024, size: 'desktop', nav: 'Verileriniz', download: 'Verilerimi indir', confirm: 'anlıyorum', del: 'Hesabımı sil', deleted: 'Hesabınız silindi' },
  ];

  it.each(cases)('downloads the data as a file and deletes the account ($locale, $size)', async (c) => {
    const lang = c.locale.slice(0, 2);
    const user = await createSignInUser(t.app);
    context = await browser.newContext({ locale: c.locale, javaScriptEnabled: false, viewport: { width: c.width, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    await page.goto(`${t.url}/account`);
    await page.getByLabel(lang === 'tr' ? 'E-posta adresi' : 'Email address').fill(user.email);
    await page.getByLabel(lang === 'tr' ? 'Parola' : 'Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: lang === 'tr' ? 'Oturum aç' : 'Sign in', exact: true }).click();
    await page.waitForURL(`${t.url}/account`);
    await page.getByRole('navigation').getByRole('link', { name: c.nav }).click();
    await page.waitForURL(`${t.url}/account/data`);
    await check(`your-data-${lang}-${c.size}`);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: c.download }).click()]);
    expect(download.suggestedFilename()).toMatch(/^account-data-\d+\.json$/);

    await page.getByLabel(lang === 'tr' ? 'Şu anki parola' : 'Current password').fill(user.password);
    await page.getByRole('button', { name: c.del }).click();
    // The box is required: the browser keeps the form until it is ticked.
    expect(new URL(page.url()).pathname).toBe('/account/data');
    await page.getByLabel(c.confirm).check();
    await page.getByRole('button', { name: c.del }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe(c.deleted);
    await check(`account-deleted-${lang}-${c.size}`);
  });
});

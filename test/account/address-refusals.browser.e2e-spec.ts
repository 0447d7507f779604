import { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { TestSmtpServer } from '../helpers/mail';
import { checkPage } from '../helpers/pages';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/**
 * A refused address says why on the page (README.md, Your account; SECURITY.md, "One mailbox, one
 * address"): the sign-up and forgot-password forms in Chromium, in Turkish and English, on a phone and on a
 * desktop. The address typed is an RFC 2047 encoded word, which the browser's own email check lets through.
 */
describeInBrowser('refused addresses in Chromium', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    [t, browser] = await Promise.all([startTestApp({ SMTP_URL: smtp.url }), launchBrowser()]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.stop();
  });
  afterEach(async () => {
    await context?.close();
  });

  const cases = [
    { locale: 'tr-TR', width: 390, size: 'phone', emailLabel: 'E-posta adresi', words: 'MIME ile kodlanmış' },
    { locale: 'en-US', width: 1024, size: 'desktop', emailLabel: 'Email address', words: 'This address is MIME-encoded' },
    { locale: 'en-US', width: 390, size: 'phone', emailLabel: 'Email address', words: 'This address is MIME-encoded' },
    { locale: 'tr-TR', width: 1024, size: 'desktop', emailLabel: 'E-posta adresi', words: 'MIME ile kodlanmış' },
  ];

  it.each(cases)('sign-up and forgot password say why an address is refused ($locale, $size)', async ({ locale, width, size, emailLabel, words }) => {
    const lang = locale.slice(0, 2);
    context = await browser.newContext({ locale, javaScriptEnabled: false, viewport: { width, height: 800 } });
    page = await context.newPage();
    const typed = '=?utf-8?q?bob?=@example.com';

    await page.goto(`${t.url}/account/sign-up`);
    await page.getByLabel(lang === 'tr' ? 'Adınız' : 'Your name').fill('Ada Lovelace');
    await page.getByLabel(emailLabel).fill(typed);
    await page.getByLabel(lang === 'tr' ? 'Parola' : 'Password', { exact: true }).fill('bir uzun cümle kimse tahmin etmez');
    await page.getByRole('button', { name: lang === 'tr' ? 'Hesap oluştur' : 'Create account' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain(words);
    await expect(page.getByLabel(emailLabel).getAttribute('aria-invalid')).resolves.toBe('true');
    await checkPage(page, `address-refused-sign-up-${lang}-${size}`);

    await page.goto(`${t.url}/account/forgot-password`);
    await page.getByLabel(emailLabel).fill(typed);
    await page.getByRole('button', { name: lang === 'tr' ? 'Bağlantı gönder' : 'Send link' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain(words);
    await checkPage(page, `address-refused-forgot-${lang}-${size}`);
    expect(smtp.received).toEqual([]);
  });
});

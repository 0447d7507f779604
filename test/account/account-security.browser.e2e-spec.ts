import { Browser, BrowserContext, Page } from 'playwright-core';
import { MailSender } from '../../src/mail/mail-sender.service';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { TestSmtpServer } from '../helpers/mail';
import { createSignInUser } from '../helpers/oauth';
import { checkPage } from '../helpers/pages';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/** README.md, Your account: /account/security in Chromium, with the mailed link read from a real SMTP server. */
describeInBrowser('the security page in Chromium', () => {
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

  /** Screenshot, axe-core and the width: the check every page passes. */
  const check = (name: string) => checkPage(page, name);

  const cases = [
    { locale: 'en-US', width: 1024, size: 'desktop', nav: 'Security', change: 'Change password', send: 'Email a link to the new address', confirm: 'Confirm my new address', done: 'Your email address changed' },
    { locale: 'tr-TR', width: 390, size: 'phone', nav: 'Güvenlik', change: 'Parolayı değiştir', send: 'Doğrulama bağlantısı gönder', confirm: 'Yeni adresimi doğrula', done: 'E-posta adresiniz değişti' },
    { locale: 'en-US', width: 390, size: 'phone', nav: 'Security', change: 'Change password', send: 'Email a link to the new address', confirm: 'Confirm my new address', done: 'Your email address changed' },
    { locale: 'tr-TR', width: 1024, size: 'desktop', nav: 'Güvenlik', change: 'Parolayı değiştir', send: 'Doğrulama bağlantısı gönder', confirm: 'Yeni adresimi doğrula', done: 'E-posta adresiniz değişti' },
  ];

  it.each(cases)('changes the password and the address from /account ($locale, $size)', async (c) => {
    const lang = c.locale.slice(0, 2);
    const user = await createSignInUser(t.app);
    context = await browser.newContext({ locale: c.locale, javaScriptEnabled: false, viewport: { width: c.width, height: 800 } });
    page = await context.newPage();
    await page.goto(`${t.url}/account`);
    await page.getByLabel(lang === 'tr' ? 'E-posta adresi' : 'Email address').fill(user.email);
    await page.getByLabel(lang === 'tr' ? 'Parola' : 'Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: lang === 'tr' ? 'Oturum aç' : 'Sign in', exact: true }).click();
    await page.waitForURL(`${t.url}/account`);
    await page.getByRole('navigation').getByRole('link', { name: c.nav }).click();
    await page.waitForURL(`${t.url}/account/security`);
    await check(`security-${lang}-${c.size}`);

    const password = page.getByRole('region', { name: c.change });
    await password.getByLabel(lang === 'tr' ? 'Şu anki parola' : 'Current password').fill('wrong password here');
    await password.getByLabel(lang === 'tr' ? 'Yeni parola' : 'New password').fill('a new sentence for chromium');
    await password.getByRole('button', { name: c.change }).click();
    await check(`security-refused-${lang}-${c.size}`);
    await page.getByLabel(lang === 'tr' ? 'Şu anki parola' : 'Current password').first().fill(user.password);
    await page.getByLabel(lang === 'tr' ? 'Yeni parola' : 'New password', { exact: true }).fill('a new sentence for chromium');
    await page.getByRole('button', { name: c.change }).click();
    await page.waitForURL(/changed=password/);
    await expect(page.getByRole('status').textContent()).resolves.toContain(lang === 'tr' ? 'Parolanız değiştirildi' : 'Your password was changed');
    await check(`security-password-changed-${lang}-${c.size}`);

    const newEmail = `chromium-moved-${lang}-${c.size}-${Date.now()}@example.com`;
    const email = page.getByRole('region', { name: lang === 'tr' ? 'E-posta adresini değiştir' : 'Change email address' });
    await email.getByLabel(lang === 'tr' ? 'Yeni e-posta adresi' : 'New email address').fill(newEmail);
    await email.getByLabel(lang === 'tr' ? 'Şu anki parola' : 'Current password').fill('a new sentence for chromium');
    await email.getByRole('button', { name: c.send }).click();
    // Post/Redirect/Get: the notice is on the GET page, so a reload sends no second link.
    await page.waitForURL(/done=email_link_sent/);
    await expect(page.getByRole('status').textContent()).resolves.toContain(lang === 'tr' ? 'Yeni adresinize bir doğrulama bağlantısı gönderiyoruz' : 'We are sending a confirmation link to your new address');
    await check(`security-email-sent-${lang}-${c.size}`);
    let link: string | undefined;
    while (!link) {
      await t.app.get(MailSender).deliverDue();
      link = smtp.to(newEmail)[0]?.links[0];
    }
    await page.goto(link);
    await check(`confirm-new-email-${lang}-${c.size}`);
    await page.getByRole('button', { name: c.confirm }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe(c.done);
    await check(`email-changed-${lang}-${c.size}`);
  });
});

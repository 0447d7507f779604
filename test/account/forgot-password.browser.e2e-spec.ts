import { Browser, BrowserContext, Page } from 'playwright-core';
import { MailSender } from '../../src/mail/mail-sender.service';
import { Mailer } from '../../src/mail/mailer.service';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { TestSmtpServer } from '../helpers/mail';
import { createSignInUser } from '../helpers/oauth';
import { checkPage } from '../helpers/pages';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/** README.md, Your account: a person who forgot their password, in Chromium, with the mail read from a real SMTP server. */
describeInBrowser('forgot password in Chromium, with a real SMTP server', () => {
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

  async function latestMailTo(email: string, subject: RegExp) {
    for (;;) {
      await t.app.get(MailSender).deliverDue();
      const mail = smtp.to(email).find((m) => subject.test(m.subject));
      if (mail) return mail;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const cases = [
    { locale: 'en-US', width: 1024, size: 'desktop', forgot: 'Forgot your password?', send: 'Send link', save: 'Save password', signIn: 'Sign in', account: 'Your account', weak: 'most common', label: 'New password' },
    { locale: 'tr-TR', width: 390, size: 'phone', forgot: 'Parolanızı mı unuttunuz?', send: 'Bağlantı gönder', save: 'Parolayı kaydet', signIn: 'Oturum aç', account: 'Hesabınız', weak: 'en sık kullanılan', label: 'Yeni parola' },
    { locale: 'en-US', width: 390, size: 'phone', forgot: 'Forgot your password?', send: 'Send link', save: 'Save password', signIn: 'Sign in', account: 'Your account', weak: 'most common', label: 'New password' },
    { locale: 'tr-TR', width: 1024, size: 'desktop', forgot: 'Parolanızı mı unuttunuz?', send: 'Bağlantı gönder', save: 'Parolayı kaydet', signIn: 'Oturum aç', account: 'Hesabınız', weak: 'en sık kullanılan', label: 'Yeni parola' },
  ];

  it.each(cases)('asks for a link from the sign-in page, sets a new password from the mail and signs in ($locale, $size)', async (c) => {
    const lang = c.locale.slice(0, 2);
    const user = await createSignInUser(t.app);
    context = await browser.newContext({ locale: c.locale, javaScriptEnabled: false, viewport: { width: c.width, height: 800 } });
    page = await context.newPage();
    await page.goto(`${t.url}/account`);
    await check(`sign-in-with-links-${lang}-${c.size}`);
    await page.getByRole('link', { name: c.forgot }).click();
    await page.waitForURL(`${t.url}/account/forgot-password`);
    await check(`forgot-password-${lang}-${c.size}`);
    await page.getByLabel(lang === 'tr' ? 'E-posta adresi' : 'Email address').fill(user.email);
    await page.getByRole('button', { name: c.send }).click();
    await page.waitForURL(`${t.url}/account/forgot-password/sent`);
    await expect(page.locator('h1').textContent()).resolves.toBe(lang === 'tr' ? 'E-postanızı kontrol edin' : 'Check your email');
    await check(`forgot-password-sent-${lang}-${c.size}`);

    const mail = await latestMailTo(user.email, /reset your password|parolanızı sıfırlayın/);
    await page.goto(mail.links[0]);
    await check(`reset-password-${lang}-${c.size}`);
    await page.getByLabel(c.label).fill('password123');
    await page.getByRole('button', { name: c.save }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain(c.weak);
    await check(`reset-password-refused-${lang}-${c.size}`);
    const fresh = 'yeni ve uzun bir parola cümlesi';
    await page.getByLabel(c.label).fill(fresh);
    await page.getByRole('button', { name: c.save }).click();
    await page.waitForURL(/\/oauth\/sign-in/);
    // The sign-in page says why the person is there.
    await expect(page.getByRole('status').textContent()).resolves.toBe(lang === 'tr' ? 'Parolanız değiştirildi. Yeni parolanızla oturum açın.' : 'Your password was changed. Sign in with it.');
    await check(`sign-in-after-reset-${lang}-${c.size}`);
    await page.getByLabel(lang === 'tr' ? 'E-posta adresi' : 'Email address').fill(user.email);
    await page.getByLabel(lang === 'tr' ? 'Parola' : 'Password', { exact: true }).fill(fresh);
    await page.getByRole('button', { name: c.signIn, exact: true }).click();
    await page.waitForURL(`${t.url}/account`);
    await expect(page.locator('h1').textContent()).resolves.toBe(c.account);
  });

  it.each(['tr', 'en'] as const)('renders the reset and notice mails without accessibility problems (%s)', async (language) => {
    const mailer = t.app.get(Mailer);
    const mails = [
      mailer.compose('reset_password', language, 'a@example.com', { name: 'Ada', resetUrl: mailer.link('/account/reset-password', { token: 'sp_mt_x' }), validFor: '30' }),
      mailer.compose('password_changed', language, 'a@example.com', { name: 'Ada', resetUrl: mailer.link('/account/forgot-password') }),
    ];
    context = await browser.newContext({ locale: language, viewport: { width: 390, height: 800 } });
    page = await context.newPage();
    for (const [i, mail] of mails.entries()) {
      await page.setContent(mail.html);
      await check(`mail-reset-${i}-${language}-phone`);
    }
  });
});

import { durationWords } from '../../src/mail/mail-messages';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { MailSender } from '../../src/mail/mail-sender.service';
import { Mailer } from '../../src/mail/mailer.service';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { TestSmtpServer } from '../helpers/mail';
import { checkPage } from '../helpers/pages';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/** README.md, Your account: a person signs up in Chromium, reads the mail the SMTP server received, follows its link and signs in. */
describeInBrowser('sign-up in Chromium, with a real SMTP server', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let browser: Browser;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    [t, browser] = await Promise.all([startTestApp({ SMTP_URL: smtp.url }), launchBrowser()]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.stop();
  });

  let context: BrowserContext;
  let page: Page;
  let policyViolations: string[];
  afterEach(async () => {
    await context?.close();
  });

  /** JavaScript off: the pages work without it. */
  async function open(locale: string, width: number) {
    context = await browser.newContext({ locale, javaScriptEnabled: false, viewport: { width, height: 800 } });
    page = await context.newPage();
    policyViolations = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) policyViolations.push(message.text());
    });
  }

  /** Screenshot, axe-core and the width: the check every page passes. */
  const check = (name: string) => checkPage(page, name);

  async function mailTo(email: string, count: number) {
    for (;;) {
      await t.app.get(MailSender).deliverDue();
      const mails = smtp.to(email);
      if (mails.length >= count) return mails[count - 1];
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const cases = [
    { locale: 'en-US', width: 1024, size: 'desktop', t: { create: 'Create an account', button: 'Create account', check: 'Check your email', confirm: 'Confirm my address', ready: 'Your account is ready', signIn: 'Sign in', account: 'Your account', weak: 'most common', bad: 'This link does not work' } },
    { locale: 'tr-TR', width: 390, size: 'phone', t: { create: 'Hesap oluşturun', button: 'Hesap oluştur', check: 'E-postanızı kontrol edin', confirm: 'Adresimi doğrula', ready: 'Hesabınız hazır', signIn: 'Oturum açın', account: 'Hesabınız', weak: 'en sık kullanılan', bad: 'Bağlantı geçersiz' } },
    { locale: 'en-US', width: 390, size: 'phone', t: { create: 'Create an account', button: 'Create account', check: 'Check your email', confirm: 'Confirm my address', ready: 'Your account is ready', signIn: 'Sign in', account: 'Your account', weak: 'most common', bad: 'This link does not work' } },
    { locale: 'tr-TR', width: 1024, size: 'desktop', t: { create: 'Hesap oluşturun', button: 'Hesap oluştur', check: 'E-postanızı kontrol edin', confirm: 'Adresimi doğrula', ready: 'Hesabınız hazır', signIn: 'Oturum açın', account: 'Hesabınız', weak: 'en sık kullanılan', bad: 'Bağlantı geçersiz' } },
  ];

  it.each(cases)('signs up from the sign-in page, confirms from the mail and signs in ($locale, $size)', async ({ locale, width, size, t: words }) => {
    const lang = locale.slice(0, 2);
    const email = `chromium-${lang}-${size}-${Date.now()}@example.com`;
    const password = 'bir uzun cümle kimse tahmin etmez';
    await open(locale, width);
    await page.goto(`${t.url}/account`);
    await page.getByRole('link', { name: words.create }).click();
    await page.waitForURL(`${t.url}/account/sign-up`);
    await check(`sign-up-${lang}-${size}`);

    // A common password first: a clear message, the fields kept (not the password).
    await page.getByLabel(lang === 'tr' ? 'Adınız' : 'Your name').fill('Ada Lovelace');
    await page.getByLabel(lang === 'tr' ? 'E-posta adresi' : 'Email address').fill(email);
    await page.getByLabel(lang === 'tr' ? 'Parola' : 'Password', { exact: true }).fill('iloveyou');
    await page.getByRole('button', { name: words.button }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain(words.weak);
    await check(`sign-up-refused-${lang}-${size}`);

    await page.getByLabel(lang === 'tr' ? 'Parola' : 'Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: words.button }).click();
    // Post/Redirect/Get: the answer is a GET page, so a reload sends no second mail.
    await page.waitForURL(`${t.url}/account/sign-up/sent`);
    await expect(page.locator('h1').textContent()).resolves.toBe(words.check);
    await check(`check-email-${lang}-${size}`);
    await page.reload();
    await expect(page.locator('h1').textContent()).resolves.toBe(words.check);

    const mail = await mailTo(email, 1);
    expect(mail.parsed.html).toBeTruthy();
    const link = mail.links.find((href) => href.includes('/account/confirm-email?token='))!;
    await page.goto(link);
    await expect(page.locator('h1').textContent()).resolves.toBe(lang === 'tr' ? 'Adresinizi doğrulayın' : 'Confirm your address');
    await check(`confirm-email-${lang}-${size}`);
    // The link asks for the password chosen at sign-up: another one creates nothing.
    const passwordField = () => page.getByLabel(lang === 'tr' ? 'Kayıt olurken seçtiğiniz parola' : 'The password you chose when you signed up');
    await passwordField().fill('not the password of this sign-up');
    await page.getByRole('button', { name: words.confirm }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain(lang === 'tr' ? 'Hesap oluşturulmadı.' : 'No account was created.');
    await check(`confirm-email-wrong-password-${lang}-${size}`);
    await passwordField().fill(password);
    await page.getByRole('button', { name: words.confirm }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe(words.ready);
    await check(`account-ready-${lang}-${size}`);

    // The same link again: used.
    await page.goto(link);
    await expect(page.locator('h1').textContent()).resolves.toBe(words.bad);
    await check(`link-invalid-${lang}-${size}`);

    await page.goto(`${t.url}/oauth/sign-in?return_to=%2Faccount`);
    await page.getByLabel(lang === 'tr' ? 'E-posta adresi' : 'Email address').fill(email);
    await page.getByLabel(lang === 'tr' ? 'Parola' : 'Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: lang === 'tr' ? 'Oturum aç' : 'Sign in' }).click();
    await page.waitForURL(`${t.url}/account`);
    await expect(page.locator('h1').textContent()).resolves.toBe(words.account);
    expect(policyViolations).toEqual([]);
  });

  it.each(['tr', 'en'] as const)('renders the HTML of every kind of mail without accessibility problems (%s)', async (language) => {
    const mailer = t.app.get(Mailer);
    const mails = [
      mailer.compose('confirm_sign_up', language, 'a@example.com', { confirmUrl: mailer.link('/account/confirm-email', { token: 'sp_mt_x' }), validFor: durationWords(86_400, language) }),
      mailer.compose('account_exists', language, 'a@example.com', { signInUrl: mailer.link('/oauth/sign-in'), resetUrl: mailer.link('/account/forgot-password') }),
      mailer.compose('reset_password', language, 'a@example.com', { name: 'Ada', resetUrl: mailer.link('/account/reset-password', { token: 'sp_mt_x' }), validFor: durationWords(1_800, language) }),
      mailer.compose('password_changed', language, 'a@example.com', { name: 'Ada', resetUrl: mailer.link('/account/forgot-password') }),
      mailer.compose('confirm_new_email', language, 'b@example.com', { confirmUrl: mailer.link('/account/confirm-new-email', { token: 'sp_mt_x' }), validFor: durationWords(86_400, language) }),
      mailer.compose('email_change_requested', language, 'a@example.com', { name: 'Ada', maskedEmail: 'b***@example.com', cancelUrl: mailer.link('/account/cancel-email-change', { token: 'sp_mt_x' }), validFor: durationWords(86_400, language) }),
      mailer.compose('email_changed', language, 'a@example.com', { name: 'Ada', newEmail: 'b@example.com', restoreUrl: mailer.link('/account/restore-email', { token: 'sp_mt_x' }), validFor: durationWords(7 * 86_400, language) }),
      mailer.compose('email_restored', language, 'a@example.com', { name: 'Ada', resetUrl: mailer.link('/account/reset-password', { token: 'sp_mt_x' }), validFor: durationWords(1_800, language) }),
      mailer.compose('sign_in_changed', language, 'a@example.com', { name: 'Ada', change: 'passkey_added', securityUrl: mailer.link('/account/security'), resetUrl: mailer.link('/account/forgot-password') }),
    ];
    await open(language, 390);
    for (const [i, mail] of mails.entries()) {
      await page.setContent(mail.html);
      await check(`mail-${i}-${language}-phone`);
    }
  });
});

import { randomBytes } from 'node:crypto';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { formInputs, signInAt } from '../helpers/account';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { TestClock } from '../helpers/clock';
import { MailTestApp, startMailTestApp } from '../helpers/mail';
import { BrowserSession, createSignInUser } from '../helpers/oauth';
import { checkPage } from '../helpers/pages';
import { TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/**
 * README.md, Your account: the pages of a change of address's other links (cancel it from the current
 * address, take the address back from the old one) and of a network refused for too many links that do
 * not work, in Chromium, in both languages, at phone and desktop width, from mails read off a real SMTP
 * server.
 */
describeInBrowser('the recovery pages in Chromium', () => {
  let t: TestApp;
  let clock: TestClock;
  let mailApp: MailTestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [mailApp, browser] = await Promise.all([startMailTestApp({ SIGN_IN_MAX_FAILURES: '3', MAIL_MAX_PER_HOUR: '100' }), launchBrowser()]);
    ({ t, clock } = mailApp);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await mailApp?.close();
  });
  afterEach(async () => {
    await context?.close();
  });

  const check = (name: string) => checkPage(page, name);

  async function askForNewAddress(user: { email: string; password: string }, newEmail: string, language: string) {
    const session = new BrowserSession(t.url, language);
    await signInAt(session, '/account', user);
    const form = await session.get('/account/security');
    expect((await session.post('/account/security/email', { ...formInputs(form.text, '/account/security/email'), new_email: newEmail, current_password: user.password })).status).toBe(303);
  }

  async function linkIn(address: string, path: string): Promise<string> {
    const mails = await mailApp.mailsTo(address);
    for (const mail of [...mails].reverse()) {
      const link = mail.links.find((candidate) => candidate.startsWith(`${t.url}${path}?token=`));
      if (link) return link;
    }
    throw new Error(`no ${path} link mailed to ${address}`);
  }

  const cases = [
    { lang: 'tr', locale: 'tr-TR', width: 390, size: 'phone' },
    { lang: 'en', locale: 'en-US', width: 1024, size: 'desktop' },
    { lang: 'tr', locale: 'tr-TR', width: 1024, size: 'desktop' },
    { lang: 'en', locale: 'en-US', width: 390, size: 'phone' },
  ] as const;

  const words = {
    tr: { cancel: 'Değişikliği iptal et', cancelled: 'Değişiklik iptal edildi', restore: 'Bunu ben yapmadım: adresimi geri al', restored: 'Adresiniz geri alındı', throttled: 'Çok fazla deneme', wait: 'dakika sonra yeniden deneyin', newMail: 'Yeni bir e-posta isteyin' },
    en: { cancel: 'Cancel the change', cancelled: 'The change was cancelled', restore: 'This was not me: take my address back', restored: 'Your address is back', throttled: 'Too many attempts', wait: 'Try again in', newMail: 'Ask for a new email' },
  };

  it.each(cases)('cancels a change from the current address, takes the address back from the old one, and says how long to wait ($lang, $size)', async (c) => {
    const w = words[c.lang];
    context = await browser.newContext({ locale: c.locale, javaScriptEnabled: false, viewport: { width: c.width, height: 800 } });
    page = await context.newPage();

    // The announcement's link cancels the pending change.
    const user = await createSignInUser(t.app);
    await askForNewAddress(user, `other-${randomBytes(4).toString('hex')}@example.com`, c.lang);
    await page.goto(await linkIn(user.email, '/account/cancel-email-change'));
    await check(`cancel-email-change-${c.lang}-${c.size}`);
    await page.getByRole('button', { name: w.cancel }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe(w.cancelled);
    await check(`email-change-cancelled-${c.lang}-${c.size}`);

    // A change made, then taken back from the old address.
    const moved = `moved-${randomBytes(4).toString('hex')}@example.com`;
    await askForNewAddress(user, moved, c.lang);
    const reader = new BrowserSession(t.url, c.lang);
    const confirm = await reader.get((await linkIn(moved, '/account/confirm-new-email')).slice(t.url.length));
    expect((await reader.post('/account/confirm-new-email', formInputs(confirm.text, '/account/confirm-new-email'))).status).toBe(200);
    clock.advance(1000);
    await page.goto(await linkIn(user.email, '/account/restore-email'));
    await check(`restore-email-${c.lang}-${c.size}`);
    await page.getByRole('button', { name: w.restore }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe(w.restored);
    await expect(page.locator('main').textContent()).resolves.toContain(user.email);
    await check(`email-restored-${c.lang}-${c.size}`);

    // Links that do not work, until the network is refused: the page says how long and offers a new mail.
    for (let i = 0; i < 4; i++) await page.goto(`${t.url}/account/reset-password?token=sp_mt_${'Z'.repeat(42)}${i}`);
    await expect(page.locator('h1').textContent()).resolves.toBe(w.throttled);
    await expect(page.getByRole('alert').textContent()).resolves.toContain(w.wait);
    await check(`link-throttled-${c.lang}-${c.size}`);
    await page.getByRole('link', { name: w.newMail }).click();
    await page.waitForURL(`${t.url}/account/forgot-password`);
    // The next case starts on a fresh window of the IP's counter.
    clock.advance(901_000);
  });
});

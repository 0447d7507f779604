import * as client from 'openid-client';
import { DataSource } from 'typeorm';
import { MailSender } from '../../src/mail/mail-sender.service';
import { TokenPurgeService } from '../../src/purge/token-purge.service';
import { followSeeOther, formInputs, signInAt } from '../helpers/account';
import { TestClock } from '../helpers/clock';
import { MailTestApp, startMailTestApp, TestSmtpServer } from '../helpers/mail';
import { BrowserSession, createSignInUser, registerClient, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/** README.md, Your account: sign-up with a confirmed address; SECURITY.md, "Account enumeration", "Pre-registering someone else's address", "Links in mails". */
describe('sign-up (README.md, Your account)', () => {
  let t: TestApp;
  let clock: TestClock;
  let n = 0;
  let mailApp: MailTestApp;

  beforeAll(async () => {
    mailApp = await startMailTestApp({ SIGN_IN_MAX_FAILURES: '5' });
    ({ t, clock } = mailApp);
  });
  afterAll(() => mailApp?.close());

  const address = () => `person-${++n}-${Date.now()}@example.com`;
  const password = 'a long sentence nobody guesses';

  async function signUp(browser: BrowserSession, fields: { name: string; email: string; password: string }) {
    const page = await browser.get('/account/sign-up');
    expect(page.status).toBe(200);
    return browser.post('/account/sign-up', { ...formInputs(page.text, '/account/sign-up'), ...fields });
  }

  const confirmLink = (text: string) => /https?:\/\/\S+\/account\/confirm-email\?token=\S+/.exec(text)![0];
  const local = (url: string) => url.slice(t.url.length);

  it('creates the account only when the link in the mail is opened and its button pressed', async () => {
    const email = address();
    const browser = new BrowserSession(t.url, 'en');
    const answer = await signUp(browser, { name: 'Ada', email, password });
    const sent = await followSeeOther(browser, answer, '/account/sign-up/sent');
    expect(sent.status).toBe(200);
    expect(sent.text).toContain('Check your email');
    expect(sent.text).toContain('href="/account/sign-up"');
    // Pending: nothing signs in with it.
    await expect(signInAt(new BrowserSession(t.url), '/account', { email, password })).rejects.toThrow(/expected a redirect back after sign-in, got 400/);

    const [mail] = await mailApp.mailsTo(email);
    expect(mail.subject).toContain('confirm your email address');
    const link = confirmLink(mail.text);
    const scanner = await new BrowserSession(t.url).get(local(link));
    expect(scanner.status).toBe(200);
    expect(scanner.headers.get('referrer-policy')).toBe('no-referrer');
    const confirmed = await browser.post('/account/confirm-email', { ...formInputs(scanner.text.length ? (await browser.get(local(link))).text : '', '/account/confirm-email'), password });
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('Your account is ready');
    const account = await signInAt(new BrowserSession(t.url), '/account', { email, password });
    expect(account.status).toBe(200);
    expect(account.text).toContain('Account created (address confirmed)');
  });

  it('answers the same for an address that has an account, and mails its owner instead (no enumeration)', async () => {
    const owner = await createSignInUser(t.app);
    const fresh = address();
    const [takenBrowser, freshBrowser] = [new BrowserSession(t.url, 'en'), new BrowserSession(t.url, 'en')];
    const forTaken = await signUp(takenBrowser, { name: 'Mallory', email: owner.email, password });
    const forFresh = await signUp(freshBrowser, { name: 'Mallory', email: fresh, password });
    expect(forTaken.status).toBe(303);
    expect(forTaken.status).toBe(forFresh.status);
    expect(forTaken.location).toBe(forFresh.location);
    expect(forTaken.text).toBe(forFresh.text);
    expect([...forTaken.headers.keys()].sort()).toEqual([...forFresh.headers.keys()].sort());
    // The page redirected to is the same too, and names neither address.
    const [takenPage, freshPage] = [await followSeeOther(takenBrowser, forTaken, '/account/sign-up/sent'), await followSeeOther(freshBrowser, forFresh, '/account/sign-up/sent')];
    expect(takenPage.status).toBe(freshPage.status);
    expect(takenPage.text).toBe(freshPage.text);
    expect([...takenPage.headers.keys()].sort()).toEqual([...freshPage.headers.keys()].sort());
    expect(takenPage.text + freshPage.text).not.toMatch(new RegExp(`${owner.email}|${fresh}`));

    const [exists] = await mailApp.mailsTo(owner.email);
    expect(exists.subject).toContain('you already have an account');
    expect(exists.links).toEqual([`${t.url}/oauth/sign-in?return_to=%2Faccount`, `${t.url}/account/forgot-password`]);
    // The owner's password still works; nothing else changed.
    expect((await signInAt(new BrowserSession(t.url), '/account', owner)).status).toBe(200);
  });

  async function confirmWith(link: string, withPassword: string, browser = new BrowserSession(t.url, 'en')) {
    const page = await browser.get(local(link));
    if (page.status !== 200) return page;
    return browser.post('/account/confirm-email', { ...formInputs(page.text, '/account/confirm-email'), password: withPassword });
  }

  it('lets nobody pre-register an address: both sign-ups keep their link, the owner confirms with their password, the attacker link dies', async () => {
    const victim = address();
    const attackerPassword = 'the attacker password 1';
    await signUp(new BrowserSession(t.url, 'en'), { name: 'Attacker', email: victim, password: attackerPassword });
    const [attackerMail] = await mailApp.mailsTo(victim);
    await signUp(new BrowserSession(t.url, 'en'), { name: 'Victim', email: victim, password });
    const mails = await mailApp.mailsTo(victim);
    expect(mails).toHaveLength(2);
    const attackerLink = confirmLink(attackerMail.text);
    const victimLink = confirmLink(mails[1].text);
    expect(attackerLink).not.toBe(victimLink);
    // The victim's sign-up did not replace the attacker's, nor the other way round: both links open.
    expect((await new BrowserSession(t.url, 'en').get(local(attackerLink))).status).toBe(200);

    const confirmed = await confirmWith(victimLink, password);
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('Your account is ready');
    // Confirming one retired the other: the attacker's link with the attacker's password no longer works.
    expect((await new BrowserSession(t.url, 'en').get(local(attackerLink))).status).toBe(400);
    const attacker = new BrowserSession(t.url, 'en');
    const csrf = formInputs((await attacker.get('/account/sign-up')).text, '/account/sign-up').csrf_token;
    const stale = await attacker.post('/account/confirm-email', { csrf_token: csrf, token: new URL(attackerLink).searchParams.get('token')!, password: attackerPassword });
    expect(stale.status).toBe(400);
    expect(stale.text).toContain('This link does not work');
    await expect(signInAt(new BrowserSession(t.url), '/account', { email: victim, password: attackerPassword })).rejects.toThrow(/got 400/);
    expect((await signInAt(new BrowserSession(t.url), '/account', { email: victim, password })).status).toBe(200);
    const db = t.app.get(DataSource);
    expect(Number((await db.query(`SELECT COUNT(*) AS n FROM pending_registrations WHERE email = '${victim}'`))[0].n)).toBe(0);
  });

  it("creates nothing when the owner of the mailbox presses a stranger's sign-up link with their own password", async () => {
    // A new window: the earlier tests' failed sign-ins counted on this IP.
    clock.advance(900_000);
    const victim = address();
    await signUp(new BrowserSession(t.url, 'en'), { name: 'Attacker', email: victim, password: 'the attacker password 2' });
    const [mail] = await mailApp.mailsTo(victim);
    const browser = new BrowserSession(t.url, 'en');
    const refused = await confirmWith(confirmLink(mail.text), password, browser);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('This is not the password chosen in this sign-up. No account was created.');
    expect(refused.text).toMatch(/<input id="password"[^>]*aria-invalid="true"/);
    expect(refused.text).not.toMatch(/<input id="password"[^>]*value=/);
    const db = t.app.get(DataSource);
    expect(Number((await db.query(`SELECT COUNT(*) AS n FROM users WHERE email = '${victim}'`))[0].n)).toBe(0);
    await expect(signInAt(new BrowserSession(t.url), '/account', { email: victim, password })).rejects.toThrow(/got 400/);
    await expect(signInAt(new BrowserSession(t.url), '/account', { email: victim, password: 'the attacker password 2' })).rejects.toThrow(/got 400/);
    // Turkish too.
    const turkish = await confirmWith(confirmLink(mail.text), password, new BrowserSession(t.url, 'tr'));
    expect(turkish.text).toContain('Bu parola, bu kayıtta seçilen parola değil. Hesap oluşturulmadı.');
  });

  it('counts wrong passwords at a link like failed sign-ins: past SIGN_IN_MAX_FAILURES even the right one is refused with 429 until the window ends', async () => {
    // A new window: the earlier tests' failures counted on this IP too.
    clock.advance(900_000);
    const email = address();
    await signUp(new BrowserSession(t.url, 'en'), { name: 'Owner', email, password });
    const link = confirmLink((await mailApp.mailsTo(email))[0].text);
    for (let i = 0; i < 5; i++) expect((await confirmWith(link, `wrong guess number ${i}`)).status).toBe(400);
    const refused = await confirmWith(link, password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The address's sign-in is counted by the same counter: its failures are the same failures.
    await expect(signInAt(new BrowserSession(t.url), '/account', { email, password })).rejects.toThrow();
    const db = t.app.get(DataSource);
    expect(Number((await db.query(`SELECT COUNT(*) AS n FROM users WHERE email = '${email}'`))[0].n)).toBe(0);
    clock.advance(900_000);
    expect((await confirmWith(link, password)).status).toBe(200);
  });

  it('takes a link once, and not after EMAIL_TOKEN_TTL; the page says so and offers a new mail', async () => {
    const once = address();
    const browser = new BrowserSession(t.url, 'en');
    await signUp(browser, { name: 'Grace', email: once, password });
    const link = local(confirmLink((await mailApp.mailsTo(once))[0].text));
    const form = { ...formInputs((await browser.get(link)).text, '/account/confirm-email'), password };
    expect((await browser.post('/account/confirm-email', form)).status).toBe(200);
    const again = await browser.post('/account/confirm-email', form);
    expect(again.status).toBe(400);
    expect(again.text).toContain('This link does not work');
    expect(again.text).toContain('href="/account/sign-up"');

    const late = address();
    await signUp(browser, { name: 'Lin', email: late, password });
    const lateLink = local(confirmLink((await mailApp.mailsTo(late))[0].text));
    const lateToken = formInputs((await browser.get(lateLink)).text, '/account/confirm-email').token;
    clock.advance(86_400_000);
    expect((await browser.get(lateLink)).status).toBe(400);
    // Posted from a live session (the first one has expired with the day): the token itself is refused.
    const later = new BrowserSession(t.url, 'en');
    const csrf = formInputs((await later.get('/account/sign-up')).text, '/account/sign-up');
    const expired = await later.post('/account/confirm-email', { ...csrf, token: lateToken, password });
    expect(expired.status).toBe(400);
    await expect(signInAt(new BrowserSession(t.url), '/account', { email: late, password })).rejects.toThrow(/got 400/);
  });

  it('keeps an unconfirmed sign-up (name, password hash) and a mailed reset link only until they expire: the purge deletes them', async () => {
    const db = t.app.get(DataSource);
    const pending = async (email: string) => (await db.query(`SELECT COUNT(*) AS n FROM pending_registrations WHERE email = '${email}'`))[0].n;
    const browser = new BrowserSession(t.url, 'en');
    const old = address();
    await signUp(browser, { name: 'Old', email: old, password });
    const user = await createSignInUser(t.app);
    const forgot = await browser.get('/account/forgot-password');
    expect((await browser.post('/account/forgot-password', { ...formInputs(forgot.text, '/account/forgot-password'), email: user.email })).status).toBe(303);
    clock.advance(43_200_000);
    const fresh = address();
    await signUp(new BrowserSession(t.url, 'en'), { name: 'Fresh', email: fresh, password });
    clock.advance(43_200_001);
    // A reset link asked for just now: live, so the purge keeps it.
    const liveUser = await createSignInUser(t.app);
    const asking = new BrowserSession(t.url, 'en');
    const forgotAgain = await asking.get('/account/forgot-password');
    expect((await asking.post('/account/forgot-password', { ...formInputs(forgotAgain.text, '/account/forgot-password'), email: liveUser.email })).status).toBe(303);

    // Earlier tests of this suite left rows too: the purge must delete exactly the expired ones, and say how many.
    const now = clock.now();
    const rows = async (table: string): Promise<Array<{ id: number; expired: boolean }>> =>
      (await db.query(`SELECT id, expires_at FROM ${table} ORDER BY id`)).map((row: { id: number | string; expires_at: number | string }) => ({ id: Number(row.id), expired: Number(row.expires_at) <= now }));
    const signUpsBefore = await rows('pending_registrations');
    const linksBefore = await rows('account_mail_tokens');
    const oldRow = Number((await db.query(`SELECT id FROM pending_registrations WHERE email = '${old}'`))[0].id);
    expect(signUpsBefore).toContainEqual({ id: oldRow, expired: true });
    const resetLink = Number((await db.query(`SELECT id FROM account_mail_tokens WHERE user_id = ${user.id}`))[0].id);
    expect(linksBefore).toContainEqual({ id: resetLink, expired: true });
    const liveLink = Number((await db.query(`SELECT id FROM account_mail_tokens WHERE user_id = ${liveUser.id}`))[0].id);
    expect(linksBefore).toContainEqual({ id: liveLink, expired: false });

    const purged = await t.app.get(TokenPurgeService).purge(now);
    expect(purged.pendingSignUps).toBe(signUpsBefore.filter((row) => row.expired).length);
    expect(purged.mailLinks).toBe(linksBefore.filter((row) => row.expired).length);
    expect(await rows('pending_registrations')).toEqual(signUpsBefore.filter((row) => !row.expired));
    expect(await rows('account_mail_tokens')).toEqual(linksBefore.filter((row) => !row.expired));
    expect(Number(await pending(old))).toBe(0);
    expect(Number(await pending(fresh))).toBe(1);
    expect(Number((await db.query(`SELECT COUNT(*) AS n FROM account_mail_tokens WHERE user_id = ${user.id}`))[0].n)).toBe(0);
    // A second purge finds nothing left to delete.
    expect(await t.app.get(TokenPurgeService).purge(now)).toMatchObject({ pendingSignUps: 0, mailLinks: 0 });
    // The live sign-up's link still works after the purge.
    const link = local(confirmLink((await mailApp.mailsTo(fresh))[0].text));
    const confirmer = new BrowserSession(t.url, 'en');
    expect((await confirmer.post('/account/confirm-email', { ...formInputs((await confirmer.get(link)).text, '/account/confirm-email'), password })).status).toBe(200);
  });

  it('sends none of the typed name to the address: a stranger cannot put words of theirs (a link) in a mail from the platform', async () => {
    const email = address();
    const name = 'Your account is locked, unlock it at https://evil.example/unlock';
    expect((await signUp(new BrowserSession(t.url, 'en'), { name, email, password })).status).toBe(303);
    const [mail] = await mailApp.mailsTo(email);
    expect(mail.text.startsWith('Hello,')).toBe(true);
    expect(mail.text + mail.html + mail.subject).not.toMatch(/evil\.example|locked/);
    expect(mail.links.every((link) => link.startsWith(`${t.url}/`))).toBe(true);
  });

  it('changes nothing when a mail scanner opens the link (GET)', async () => {
    const email = address();
    await signUp(new BrowserSession(t.url, 'en'), { name: 'Scan', email, password });
    const link = local(confirmLink((await mailApp.mailsTo(email))[0].text));
    for (let i = 0; i < 3; i++) expect((await new BrowserSession(t.url).get(link)).status).toBe(200);
    await expect(signInAt(new BrowserSession(t.url), '/account', { email, password })).rejects.toThrow(/got 400/);
  });

  it('answers an accepted form with a 303 to a GET page, so reloading that page sends no second mail and stores nothing (Post/Redirect/Get)', async () => {
    const db = t.app.get(DataSource);
    const pending = async (email: string) => Number((await db.query(`SELECT COUNT(*) AS n FROM pending_registrations WHERE email = '${email}'`))[0].n);
    const email = address();
    const browser = new BrowserSession(t.url, 'en');
    const page = await followSeeOther(browser, await signUp(browser, { name: 'Reload', email, password }), '/account/sign-up/sent');
    // A reload (or the back button) repeats the GET, not the post.
    for (let i = 0; i < 3; i++) expect((await browser.get('/account/sign-up/sent')).text).toBe(page.text);
    expect(await pending(email)).toBe(1);
    expect(await mailApp.mailsTo(email)).toHaveLength(1);

    const owner = await createSignInUser(t.app);
    const forgot = await browser.get('/account/forgot-password');
    const asked = await browser.post('/account/forgot-password', { ...formInputs(forgot.text, '/account/forgot-password'), email: owner.email });
    const sent = await followSeeOther(browser, asked, '/account/forgot-password/sent');
    expect(sent.text).toContain('Check your email');
    expect(sent.text).toContain('href="/account/forgot-password"');
    for (let i = 0; i < 3; i++) expect((await browser.get('/account/forgot-password/sent')).text).toBe(sent.text);
    const links = async () => Number((await db.query(`SELECT COUNT(*) AS n FROM account_mail_tokens WHERE user_id = ${owner.id}`))[0].n);
    expect(await links()).toBe(1);
    expect(await mailApp.mailsTo(owner.email)).toHaveLength(1);
  });

  it('refuses weak passwords and bad fields with clear messages, and stores and mails nothing', async () => {
    const email = address();
    const cases: Array<[Record<string, string>, string]> = [
      [{ name: 'Bob', email, password: 'short' }, 'at least 8 characters'],
      [{ name: 'Bob', email, password: 'password1' }, 'one of the most common ones'],
      [{ name: 'Bob', email, password: email }, 'cannot be your email address'],
      [{ name: 'Bob the builder', email, password: 'Bob The Builder' }, 'cannot be your name'],
      [{ name: 'Bob', email, password: 'x'.repeat(129) }, 'at most 128 characters'],
      [{ name: 'Bob', email: 'not-an-address', password }, 'This is not an email address'],
      [{ name: '', email, password }, 'Enter your name'],
    ];
    for (const [fields, message] of cases) {
      const answer = await signUp(new BrowserSession(t.url, 'en'), fields as never);
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(message);
      expect(answer.text).toContain('No account was created.');
      expect(answer.text).not.toMatch(/<input id="password"[^>]*value=/);
    }
    const turkish = await signUp(new BrowserSession(t.url, 'tr'), { name: 'Bob', email, password: '12345678' });
    expect(turkish.text).toContain('en sık kullanılan parolalardan biri');
    expect(await mailApp.mailsTo(email)).toHaveLength(0);
  });

  it('throttles guesses at link tokens per IP like sign-in, with 429 and Retry-After, while a valid link still works', async () => {
    const email = address();
    const browser = new BrowserSession(t.url, 'en');
    await signUp(browser, { name: 'Real', email, password });
    const link = local(confirmLink((await mailApp.mailsTo(email))[0].text));
    // A new window: the earlier tests' wrong links counted on this IP too.
    clock.advance(900_000);
    for (let i = 0; i < 5; i++) expect((await browser.get(`/account/confirm-email?token=sp_mt_${'A'.repeat(42)}${i}`)).status).toBe(400);
    const refused = await browser.get(`/account/confirm-email?token=sp_mt_${'B'.repeat(43)}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The page says how long to wait and offers a new mail (the sign-up form sends one).
    const minutes = Math.ceil(Number(refused.headers.get('retry-after')) / 60);
    expect(refused.text).toContain(`Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
    expect(refused.text).toContain('href="/account/sign-up"');
    // A valid token is not a guess: it works past the limit.
    expect((await browser.get(link)).status).toBe(200);
  });

  it('refuses a form post without the CSRF token or from another site, changing nothing', async () => {
    const email = address();
    const browser = new BrowserSession(t.url, 'en');
    await browser.get('/account/sign-up');
    expect((await browser.post('/account/sign-up', { name: 'X', email, password })).status).toBe(403);
    expect(await mailApp.mailsTo(email)).toHaveLength(0);
  });
});

describe('sign-up turned off', () => {
  it('SIGN_UP=closed: the page says so and the sign-in page does not link to it', async () => {
    const t = await startTestApp({ SIGN_UP: 'closed' });
    try {
      const browser = new BrowserSession(t.url, 'en');
      const page = await browser.get('/account/sign-up');
      expect(page.status).toBe(404);
      expect(page.text).toContain('the operator creates accounts');
      expect((await browser.get('/oauth/sign-in?return_to=%2Faccount')).text).not.toContain('/account/sign-up');
    } finally {
      await t.close();
    }
  });

  it('in production without SMTP_URL: the page says the operator turned mail off', async () => {
    const t = await startTestApp({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32), KEY_ENCRYPTION_SECRET: 'k'.repeat(32) });
    try {
      const page = await new BrowserSession(t.url, 'en').get('/account/sign-up');
      expect(page.status).toBe(404);
      expect(page.text).toContain('The operator has turned off sending email');
    } finally {
      await t.close();
    }
  });
});

/** SECURITY.md, "Mail flooding": MAIL_MAX_PER_HOUR per address, ten times as many per IP, the same answer past either. */
describe('mail budgets (README.md, Your account)', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let clock: TestClock;
  let mailApp: MailTestApp;

  beforeAll(async () => {
    mailApp = await startMailTestApp({ MAIL_MAX_PER_HOUR: '2' });
    ({ t, smtp, clock } = mailApp);
  });
  afterAll(() => mailApp?.close());

  async function post(path: string, fields: Record<string, string>) {
    const browser = new BrowserSession(t.url, 'en');
    const page = await browser.get(path);
    return browser.post(path, { ...formInputs(page.text, path), ...fields });
  }

  it('sends at most MAIL_MAX_PER_HOUR mails to one address an hour, whatever page asks, with the same answer past it', async () => {
    const owner = await createSignInUser(t.app);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await post('/account/sign-up', { name: 'Flood', email: owner.email, password: 'flooding the inbox now' }));
    answers.push(await post('/account/forgot-password', { email: owner.email }));
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303, 303]);
    expect(answers.map((a) => a.location)).toEqual(['/account/sign-up/sent', '/account/sign-up/sent', '/account/sign-up/sent', '/account/forgot-password/sent']);
    expect(new Set(answers.slice(0, 3).map((a) => a.text)).size).toBe(1);
    await t.app.get(MailSender).deliverDue();
    expect(smtp.to(owner.email)).toHaveLength(2);
    clock.advance(3600_000);
    await post('/account/forgot-password', { email: owner.email });
    await t.app.get(MailSender).deliverDue();
    expect(smtp.to(owner.email)).toHaveLength(3);
  });

  it('sends at most ten times MAIL_MAX_PER_HOUR mails an hour caused from one IP', async () => {
    clock.advance(3600_000);
    const addresses = Array.from({ length: 22 }, (_, i) => `ip-flood-${i}-${Date.now()}@example.com`);
    for (const email of addresses) expect((await post('/account/forgot-password', { email })).status).toBe(303);
    for (const email of addresses.slice(0, 2)) expect((await post('/account/sign-up', { name: 'Many', email, password: 'one address many mails' })).status).toBe(303);
    await t.app.get(MailSender).deliverDue();
    // Forgot password mails nobody without an account, but counts: the 20 slots are gone, the sign-ups mail nothing.
    expect(addresses.flatMap((email) => smtp.to(email))).toHaveLength(0);
  });
});

describe('email_verified (OpenID Connect Core §5.1)', () => {
  let mailApp: MailTestApp;
  beforeAll(async () => {
    mailApp = await startMailTestApp();
  });
  afterAll(() => mailApp?.close());

  it('is true in the ID token and in UserInfo for an account made by a confirmed sign-up, as openid-client reads them', async () => {
    const { t } = mailApp;
    const email = `verified-${Date.now()}@example.com`;
    const password = 'confirmed by the link';
    const browser = new BrowserSession(t.url, 'en');
    const page = await browser.get('/account/sign-up');
    await browser.post('/account/sign-up', { ...formInputs(page.text, '/account/sign-up'), name: 'Veri', email, password });
    const link = /https?:\/\/\S+\/account\/confirm-email\?token=\S+/.exec((await mailApp.mailsTo(email))[0].text)![0].slice(t.url.length);
    expect((await browser.post('/account/confirm-email', { ...formInputs((await browser.get(link)).text, '/account/confirm-email'), password })).status).toBe(200);

    const rp = await registerClient(t.app, { scopes: ['openid', 'email'] });
    const config = await client.discovery(new URL(t.url), rp.clientId, rp.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: rp.redirectUri, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', nonce });
    const callback = await runAuthorization(new BrowserSession(t.url, 'en'), url.href, { email, password });
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedNonce: nonce, idTokenExpected: true });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ email, email_verified: true });
    expect(await client.fetchUserInfo(config, tokens.access_token, claims.sub)).toEqual({ sub: claims.sub, email, email_verified: true });
  });
});

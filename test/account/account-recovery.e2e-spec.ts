import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { inTransaction } from '../../src/database/transaction';
import { Passkey } from '../../src/passkeys/passkey.entity';
import { PasskeysRepository } from '../../src/passkeys/passkeys.repository';
import { credential, turnOnAuthenticator } from '../helpers/second-factor';
import { formInputs, signInAt } from '../helpers/account';
import { TestClock } from '../helpers/clock';
import { authorizationCode, me, redeem, refresh, tokens } from '../helpers/flows';
import { http } from '../helpers/http';
import { MailTestApp, ReceivedMail, startMailTestApp } from '../helpers/mail';
import { BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, OAuthTestUser, registerClient } from '../helpers/oauth';
import { runCli } from '../helpers/processes';
import { TestApp } from '../helpers/test-app';

/**
 * SECURITY.md, "A stolen session outliving a password reset", "Taking over an account through a change
 * of password or address", "The way back from the old address": an owner who recovers the account gets
 * all of it back. Every mail is read from a real SMTP server, as its recipient reads it.
 */
describe('a recovery gives the owner everything back (README.md, Your account)', () => {
  let t: TestApp;
  let clock: TestClock;
  let mailApp: MailTestApp;
  let client: OAuthTestClient;
  let other: OAuthTestClient;
  const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

  beforeAll(async () => {
    // A token cache as a busy deployment runs it: a revoked token must be refused at once all the same.
    mailApp = await startMailTestApp({ SIGN_IN_MAX_FAILURES: '50', TOKEN_CACHE_TTL_MS: '60000', MAIL_MAX_PER_HOUR: '100' });
    ({ t, clock } = mailApp);
    client = await registerClient(t.app);
    other = await registerClient(t.app, { type: 'public', scopes: ['openid', 'profile'], deviceFlow: true });
  });
  afterAll(() => mailApp?.close());

  const evilAddress = () => `evil-${randomBytes(4).toString('hex')}@evil.example`;
  const local = (url: string) => url.slice(t.url.length);
  const linkTo = (mail: ReceivedMail, path: string) => local(mail.links.find((link) => link.startsWith(`${t.url}${path}?token=`))!);
  const provisioned = (user: { email: string; password: string }) => ({ user, client: { clientId: client.clientId, clientSecret: client.clientSecret!, redirectUri: client.redirectUri } });

  async function latest(address: string, subject: string): Promise<ReceivedMail> {
    const mails = (await mailApp.mailsTo(address)).filter((mail) => mail.subject.includes(subject));
    expect(mails.length).toBeGreaterThan(0);
    return mails[mails.length - 1];
  }

  async function signedIn(user: { email: string; password: string }, language = 'en') {
    const browser = new BrowserSession(t.url, language);
    expect((await signInAt(browser, '/account', user)).status).toBe(200);
    return browser;
  }

  async function askForNewAddress(browser: BrowserSession, newEmail: string, password: string) {
    const page = await browser.get('/account/security');
    const sent = await browser.post('/account/security/email', { ...formInputs(page.text, '/account/security/email'), new_email: newEmail, current_password: password });
    expect([sent.status, sent.location]).toEqual([303, '/account/security?done=email_link_sent']);
  }

  /** Opens a mailed link in a fresh browser and presses its button: the POST's answer. */
  async function press(link: string, action: string): Promise<{ status: number; text: string }> {
    const reader = new BrowserSession(t.url, 'en');
    const page = await reader.get(link);
    if (page.status !== 200) return page;
    return reader.post(action, formInputs(page.text, action));
  }

  /** Posts a link's token to its action with a valid CSRF token (the page of a dead link has no form). */
  async function postToken(link: string, action: string) {
    const reader = new BrowserSession(t.url, 'en');
    const csrf = hiddenInputs((await reader.get('/account/forgot-password')).text).csrf_token;
    return reader.post(action, { csrf_token: csrf, token: new URL(link, t.url).searchParams.get('token')! });
  }

  async function resetByMail(email: string, password: string) {
    // Later than the sessions signed in before (the clock stands still unless moved).
    clock.advance(1000);
    const browser = new BrowserSession(t.url, 'en');
    const form = await browser.get('/account/forgot-password');
    await browser.post('/account/forgot-password', { ...formInputs(form.text, '/account/forgot-password'), email });
    const link = linkTo(await latest(email, 'reset your password'), '/account/reset-password');
    const page = await browser.get(link);
    const reset = await browser.post('/account/reset-password', { ...formInputs(page.text, '/account/reset-password'), password });
    expect(reset.status).toBe(303);
  }

  async function expectRevoked(pair: { access_token: string; refresh_token: string }, user: { email: string; password: string }) {
    const answer = await me(t.url, pair.access_token);
    expect(answer.status).toBe(401);
    const refreshed = await refresh(t.url, provisioned(user), pair.refresh_token);
    expect([refreshed.status, refreshed.body.error]).toEqual([400, 'invalid_grant']);
  }

  it("refuses a stranger's pending change of address once the owner resets the password: the takeover fails", async () => {
    const owner = await createSignInUser(t.app);
    const evil = evilAddress();
    // The stranger knows the password and asks to move the account to a mailbox of theirs.
    const stranger = await signedIn(owner);
    await askForNewAddress(stranger, evil, owner.password);
    const confirmLink = linkTo(await latest(evil, 'confirm your new email address'), '/account/confirm-new-email');

    // The owner notices, and resets the password through the mail.
    await resetByMail(owner.email, 'the owner has a new sentence now');
    expect((await stranger.get('/account')).status).toBe(303);

    // The stranger's link is refused, on its page and its button alike; nothing moves.
    const page = await new BrowserSession(t.url, 'en').get(confirmLink);
    expect(page.status).toBe(400);
    expect(page.text).toContain('This link has been used, has expired, or was never valid.');
    expect((await postToken(confirmLink, '/account/confirm-new-email')).status).toBe(400);
    await expect(signInAt(new BrowserSession(t.url), '/account', { email: evil, password: 'the owner has a new sentence now' })).rejects.toThrow(/got 400/);
    expect((await signInAt(new BrowserSession(t.url), '/account', { email: owner.email, password: 'the owner has a new sentence now' })).status).toBe(200);
    // A forgot-password on the stranger's mailbox finds no account.
    const browser = new BrowserSession(t.url, 'en');
    const form = await browser.get('/account/forgot-password');
    await browser.post('/account/forgot-password', { ...formInputs(form.text, '/account/forgot-password'), email: evil });
    expect((await mailApp.mailsTo(evil)).map((mail) => mail.subject)).toEqual(['Startup Platform: confirm your new email address']);
  });

  it('refuses a reset link mailed before a confirmed change of address once the change is made', async () => {
    const user = await createSignInUser(t.app);
    const browser = new BrowserSession(t.url, 'en');
    const form = await browser.get('/account/forgot-password');
    await browser.post('/account/forgot-password', { ...formInputs(form.text, '/account/forgot-password'), email: user.email });
    const resetLink = linkTo(await latest(user.email, 'reset your password'), '/account/reset-password');

    const moved = `moved-${randomBytes(4).toString('hex')}@example.com`;
    await askForNewAddress(await signedIn(user), moved, user.password);
    const changed = await press(linkTo(await latest(moved, 'confirm your new email address'), '/account/confirm-new-email'), '/account/confirm-new-email');
    expect(changed.status).toBe(200);

    expect((await new BrowserSession(t.url, 'en').get(resetLink)).status).toBe(400);
    const refused = await postToken(resetLink, '/account/reset-password');
    expect(refused.status).toBe(400);
    // The password did not change: the new address signs in with the old one.
    expect((await signInAt(new BrowserSession(t.url), '/account', { email: moved, password: user.password })).status).toBe(200);
  });

  it('revokes every token of every application at a reset by mail, refused at once though cached, and retires unredeemed codes', async () => {
    const user = await createSignInUser(t.app);
    const pair = await tokens(t.url, provisioned(user));
    const second = await tokens(t.url, provisioned(user));
    // Cached on this instance (TOKEN_CACHE_TTL_MS=60000).
    expect((await me(t.url, pair.access_token)).status).toBe(200);
    const unredeemed = await authorizationCode(new BrowserSession(t.url), provisioned(user));

    await resetByMail(user.email, 'another long sentence for tokens');
    await expectRevoked(pair, user);
    await expectRevoked(second, user);
    const late = await redeem(t.url, provisioned(user), unredeemed);
    expect([late.status, late.body.error]).toEqual([400, 'invalid_grant']);
    // A connected app signs the user in again; the remembered consent stays.
    expect((await me(t.url, (await tokens(t.url, provisioned({ email: user.email, password: 'another long sentence for tokens' }))).access_token)).status).toBe(200);
  });

  it('denies an approved device request not yet collected when the password is reset', async () => {
    const user = await createSignInUser(t.app);
    const post = (path: string, fields: Record<string, string>) =>
      http(t.url, path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    const started = await post('/oauth/device_authorization', { client_id: other.clientId, scope: 'openid profile' });
    const { device_code: deviceCode, user_code: userCode } = started.body;
    const browser = await signedIn(user);
    const consent = await browser.get(`/device/consent?user_code=${userCode}`);
    expect((await browser.post('/device/consent', { ...hiddenInputs(consent.text), decision: 'approve' })).status).toBe(200);

    await resetByMail(user.email, 'a device will not get this one');
    const poll = await post('/oauth/token', { grant_type: DEVICE_GRANT, client_id: other.clientId, device_code: deviceCode });
    expect([poll.status, poll.body.error]).toEqual([400, 'access_denied']);
  });

  it("drops an authenticator app a borrowed session began to set up when the owner resets the password: its secret never becomes the owner's", async () => {
    const user = await createSignInUser(t.app);
    const borrowed = await signedIn(user);
    const security = await borrowed.get('/account/security');
    expect((await borrowed.post('/account/security/authenticator', formInputs(security.text, '/account/security/authenticator'))).status).toBe(303);
    const planted = credential((await borrowed.get('/account/security')).text, 'totp_secret');
    expect(planted).toMatch(/^[A-Z2-7]{16,}$/);

    const fresh = 'the owner took the account back';
    await resetByMail(user.email, fresh);
    const owner = await signedIn({ email: user.email, password: fresh });
    // No half-made app waits on the page for the owner to confirm.
    expect(credential((await owner.get('/account/security')).text, 'totp_secret')).toBeUndefined();
    const { secret } = await turnOnAuthenticator(owner, { email: user.email, password: fresh }, () => clock.now());
    expect(secret).not.toBe(planted);
  });

  it('revokes every token when the password is changed on the security page', async () => {
    const user = await createSignInUser(t.app);
    const pair = await tokens(t.url, provisioned(user));
    expect((await me(t.url, pair.access_token)).status).toBe(200);
    const browser = await signedIn(user);
    const page = await browser.get('/account/security');
    const fresh = 'changed on the security page today';
    const done = await browser.post('/account/security/password', { ...formInputs(page.text, '/account/security/password'), current_password: user.password, new_password: fresh });
    expect(done.status).toBe(303);
    await expectRevoked(pair, user);
  });

  it('revokes every token and retires every mailed link when the operator runs users:reset-password', async () => {
    const user = await createSignInUser(t.app);
    const pair = await tokens(t.url, provisioned(user));
    const evil = evilAddress();
    await askForNewAddress(await signedIn(user), evil, user.password);
    const confirmLink = linkTo(await latest(evil, 'confirm your new email address'), '/account/confirm-new-email');

    const cli = await runCli(['users:reset-password', '--email', user.email, '--password', 'set by the operator today', '--json'], t.env);
    expect(cli.status).toBe(0);
    // Another process: this instance's cache is not emptied by it, and forgets within TOKEN_CACHE_TTL_MS
    // (SECURITY.md); the CLI's clock is the wall clock.
    clock.setTo(Math.max(clock.now(), Date.now()) + 60_001);
    await expectRevoked(pair, user);
    expect((await postToken(confirmLink, '/account/confirm-new-email')).status).toBe(400);
  });

  it('announces a change of address to the current address at once, with the new one masked and a link that cancels it once', async () => {
    const user = await createSignInUser(t.app);
    const evil = evilAddress();
    await askForNewAddress(await signedIn(user), evil, user.password);
    const announcement = await latest(user.email, 'a change of your email address was asked for');
    const masked = `e***@evil.example`;
    expect(announcement.text).toContain(`to ${masked}.`);
    expect(announcement.text + announcement.html).not.toContain(evil);
    const cancelLink = linkTo(announcement, '/account/cancel-email-change');

    // A mail scanner's GET changes nothing; the page's button does.
    const scanner = await new BrowserSession(t.url, 'en').get(cancelLink);
    expect(scanner.status).toBe(200);
    expect(scanner.headers.get('referrer-policy')).toBe('no-referrer');
    expect(scanner.text).toContain('Cancel the change');
    const cancelled = await press(cancelLink, '/account/cancel-email-change');
    expect(cancelled.status).toBe(200);
    expect(cancelled.text).toContain('The change was cancelled');
    expect(cancelled.text).toContain('href="/account/forgot-password"');
    expect((await postToken(cancelLink, '/account/cancel-email-change')).status).toBe(400);

    const confirmLink = linkTo(await latest(evil, 'confirm your new email address'), '/account/confirm-new-email');
    expect((await new BrowserSession(t.url, 'en').get(confirmLink)).status).toBe(400);
    expect((await postToken(confirmLink, '/account/confirm-new-email')).status).toBe(400);
    const account = await signInAt(new BrowserSession(t.url), '/account', user);
    expect(account.text).toContain('Change of email address cancelled from the current address');

    // In Turkish as well.
    await askForNewAddress(await signedIn(user, 'tr'), evilAddress(), user.password);
    const tr = await latest(user.email, 'e-posta adresinizi değiştirmek istendi');
    expect(tr.text).toContain('e***@evil.example olarak değiştirmek istendi');
  });

  it('gives the old address a way back that ends every way in the stranger had, and a new password for the owner', async () => {
    const owner = await createSignInUser(t.app);
    const evil = evilAddress();
    const stranger = await signedIn(owner);
    await askForNewAddress(stranger, evil, owner.password);
    expect((await press(linkTo(await latest(evil, 'confirm your new email address'), '/account/confirm-new-email'), '/account/confirm-new-email')).status).toBe(200);
    // The stranger, who knew the password, settles in at the new address: a session, tokens,
    const strangerAtEvil = { email: evil, password: owner.password };
    const strangerSession = await signedIn(strangerAtEvil);
    const strangerTokens = await tokens(t.url, provisioned(strangerAtEvil));
    // and ways in of their own: a passkey, and the authenticator app, which would hold the owner at the code step.
    await turnOnAuthenticator(new BrowserSession(t.url, 'en'), strangerAtEvil, () => clock.now());
    await inTransaction(t.app.get(DataSource), (tx) =>
      t.app.get(PasskeysRepository, { strict: false }).insert(tx, Object.assign(new Passkey(), { id: 'strangers-passkey', userId: owner.id, publicKey: 'AAAA', counter: 0, transports: null, name: 'Mine now', createdAt: clock.now(), lastUsedAt: null })),
    );

    // The notice to the old address holds no reset link (that would reach the stranger) but the way back.
    const notice = await latest(owner.email, 'your email address was changed');
    expect(notice.links.some((link) => link.includes('/account/forgot-password') || link.includes('/account/reset-password'))).toBe(false);
    const restoreLink = linkTo(notice, '/account/restore-email');
    clock.advance(1000);
    const page = await new BrowserSession(t.url, 'en').get(restoreLink);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const restored = await press(restoreLink, '/account/restore-email');
    expect(restored.status).toBe(200);
    expect(restored.text).toContain('Your address is back');
    expect(restored.text).toContain(owner.email);
    expect((await postToken(restoreLink, '/account/restore-email')).status).toBe(400);

    // Everything the stranger had is gone: the session, the tokens, the address, the password.
    expect((await strangerSession.get('/account')).status).toBe(303);
    await expectRevoked(strangerTokens, { email: owner.email, password: '' });
    await expect(signInAt(new BrowserSession(t.url), '/account', strangerAtEvil)).rejects.toThrow(/got 400/);
    // The password the stranger knew no longer signs in at either address.
    await expect(signInAt(new BrowserSession(t.url), '/account', owner)).rejects.toThrow(/got 400/);
    expect(await t.app.get(PasskeysRepository, { strict: false }).ofUser(owner.id)).toEqual([]);

    // The owner sets a new password with the link mailed to the restored address, and is in.
    const back = await latest(owner.email, 'your email address is back, set a new password');
    const reset = new BrowserSession(t.url, 'en');
    const form = await reset.get(linkTo(back, '/account/reset-password'));
    expect((await reset.post('/account/reset-password', { ...formInputs(form.text, '/account/reset-password'), password: 'the owner is back for good' })).status).toBe(303);
    const account = await signInAt(new BrowserSession(t.url), '/account', { email: owner.email, password: 'the owner is back for good' });
    expect(account.text).toContain('Old email address taken back; sessions and apps signed out');
  });

  it('retires the way back at the next password, as every mailed link: the holder of the address the owner moved away from cannot take the account back', async () => {
    const owner = await createSignInUser(t.app);
    const moved = evilAddress().replace('evil-', 'owner-');
    // The owner leaves an address someone else can read now (an old employer's, a shared mailbox),
    await askForNewAddress(await signedIn(owner), moved, owner.password);
    expect((await press(linkTo(await latest(moved, 'confirm your new email address'), '/account/confirm-new-email'), '/account/confirm-new-email')).status).toBe(200);
    const restoreLink = linkTo(await latest(owner.email, 'your email address was changed'), '/account/restore-email');
    // then sets a new password.
    await resetByMail(moved, 'the owner secured the account');

    // Whoever reads the old mailbox finds the way back dead, and the account stays where the owner put it.
    clock.advance(1000);
    expect((await postToken(restoreLink, '/account/restore-email')).status).toBe(400);
    const account = await signInAt(new BrowserSession(t.url), '/account', { email: moved, password: 'the owner secured the account' });
    expect(account.status).toBe(200);
    expect((await mailApp.mailsTo(owner.email)).filter((mail) => mail.subject.includes('set a new password'))).toEqual([]);
  });
});

describe('mail links opened behind one address (SECURITY.md, "Guessing mail links")', () => {
  let t: TestApp;
  let mailApp: MailTestApp;

  beforeAll(async () => {
    mailApp = await startMailTestApp({ SIGN_IN_MAX_FAILURES: '5', MAIL_MAX_PER_HOUR: '100' });
    ({ t } = mailApp);
  });
  afterAll(() => mailApp?.close());

  async function resetLink(user: OAuthTestUser): Promise<string> {
    const browser = new BrowserSession(t.url, 'en');
    const form = await browser.get('/account/forgot-password');
    await browser.post('/account/forgot-password', { ...formInputs(form.text, '/account/forgot-password'), email: user.email });
    const mails = await mailApp.mailsTo(user.email);
    return /https?:\/\/\S+\/account\/reset-password\?token=\S+/.exec(mails[mails.length - 1].text)![0].slice(t.url.length);
  }

  it('counts only links that do not work: after five used links from one IP a fresh valid link still works, and the refusal says how long to wait', async () => {
    const user = await createSignInUser(t.app);
    // Five people of one office open links that were used already.
    for (let i = 0; i < 5; i++) {
      const used = await resetLink(user);
      const browser = new BrowserSession(t.url, 'en');
      const page = await browser.get(used);
      expect((await browser.post('/account/reset-password', { ...formInputs(page.text, '/account/reset-password'), password: `office sentence number ${i} here` })).status).toBe(303);
      expect((await new BrowserSession(t.url, 'en').get(used)).status).toBe(400);
    }
    // A sixth link that does not work is refused for the network, with how long to wait and a new mail.
    const refused = await new BrowserSession(t.url, 'en').get(`/account/reset-password?token=sp_mt_${'C'.repeat(43)}`);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    const minutes = Math.ceil(retryAfter / 60);
    expect(refused.text).toContain(`Too many links that do not work were tried from this network. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
    expect(refused.text).toContain('<a href="/account/forgot-password">Ask for a new email</a>');
    const tr = await new BrowserSession(t.url, 'tr').get(`/account/reset-password?token=sp_mt_${'D'.repeat(43)}`);
    expect(tr.status).toBe(429);
    expect(tr.text).toContain(`Bu ağdan çalışmayan çok fazla bağlantı denendi. ${Math.ceil(Number(tr.headers.get('retry-after')) / 60)} dakika sonra yeniden deneyin.`);
    expect(tr.text).toContain('<a href="/account/forgot-password">Yeni bir e-posta isteyin</a>');

    // A fresh, valid link works: its page and its button.
    const fresh = await resetLink(user);
    const browser = new BrowserSession(t.url, 'en');
    const page = await browser.get(fresh);
    expect(page.status).toBe(200);
    expect((await browser.post('/account/reset-password', { ...formInputs(page.text, '/account/reset-password'), password: 'the last office sentence' })).status).toBe(303);
  });
});

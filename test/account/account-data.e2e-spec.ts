import { DataSource } from 'typeorm';
import { inTransaction } from '../../src/database/transaction';
import { DeveloperService } from '../../src/developer/developer.service';
import { Passkey } from '../../src/passkeys/passkey.entity';
import { PasskeysRepository } from '../../src/passkeys/passkeys.repository';
import { MailSender } from '../../src/mail/mail-sender.service';
import { formInputs, signInAt } from '../helpers/account';
import { http } from '../helpers/http';
import { issueTestToken } from '../helpers/tokens';
import { me, Provisioned, tokens } from '../helpers/flows';
import { MailTestApp, startMailTestApp, TestSmtpServer } from '../helpers/mail';
import { BrowserSession, createSignInUser, OAuthTestUser, registerClient } from '../helpers/oauth';
import { postCode, postPassword, turnOnAuthenticator } from '../helpers/second-factor';
import { startTestApp, TestApp } from '../helpers/test-app';

/** README.md, Your account: /account/data, Download my data and Delete account. */
describe('your data (README.md, Your account)', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let mailApp: MailTestApp;

  beforeAll(async () => {
    mailApp = await startMailTestApp();
    ({ t, smtp } = mailApp);
  });
  afterAll(() => mailApp?.close());

  /** A user who granted an operator's app, registered an application of their own (and used it) and holds an API key. */
  async function userWithEverything() {
    const user = await createSignInUser(t.app);
    const operatorApp = await registerClient(t.app, { scopes: ['profile', 'read:startups'] });
    const browser = new BrowserSession(t.url, 'en');
    const granted = await tokens(t.url, { user, client: operatorApp } as Provisioned, browser);
    const developer = t.app.get(DeveloperService, { strict: false });
    const actor = { userId: user.id, ip: null };
    const own = await developer.registerApplication(actor, { name: 'My Own App', redirectUris: ['https://own.example/cb'], type: 'confidential', scopes: ['profile', 'read:startups'] });
    const ownTokens = await tokens(t.url, { user, client: { clientId: own.client.clientId, clientSecret: own.secret!, redirectUri: 'https://own.example/cb' } } as Provisioned, browser);
    const { key } = await developer.createApiKey(actor, 'My key');
    return { user, browser, operatorApp, granted, own, ownTokens, apiKey: key };
  }

  it('downloads everything the platform holds about the user as a JSON attachment, never a secret or a hash', async () => {
    const { user, browser, operatorApp, own, apiKey, granted } = await userWithEverything();
    // A passkey (as the ceremony stores it) and the authenticator app, one recovery code used to sign in.
    const passkey = Object.assign(new Passkey(), {
      id: 'cred-' + 'x'.repeat(40),
      userId: user.id,
      publicKey: 'pk-' + 'y'.repeat(80),
      counter: 3,
      transports: 'internal',
      name: 'Ada’s phone',
      createdAt: Date.UTC(2026, 10, 1),
      lastUsedAt: Date.UTC(2026, 10, 2),
    });
    await inTransaction(t.app.get(DataSource), (tx) => t.app.get(PasskeysRepository).insert(tx, passkey));
    const { secret: totpSecret, recoveryCodes } = await turnOnAuthenticator(browser, user, () => mailApp.clock.now());
    const other = new BrowserSession(t.url, 'en');
    expect((await postCode(other, await postPassword(other, await other.get('/oauth/sign-in?return_to=%2Faccount'), user), recoveryCodes[0])).status).toBe(303);
    expect((await signInAt(browser, '/account/data', user)).status).toBe(200);
    const page = await browser.get('/account/data');
    const download = await browser.post('/account/data/download', formInputs(page.text, '/account/data/download'));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="account-data-\d+\.json"$/);
    const data = JSON.parse(download.text);
    expect(data.profile).toMatchObject({ id: user.id, email: user.email, email_verified: true });
    expect(data.connected_apps.map((app: { client_id: string }) => app.client_id).sort()).toEqual([operatorApp.clientId, own.client.clientId].sort());
    expect(data.applications).toEqual([expect.objectContaining({ client_id: own.client.clientId, name: 'My Own App', redirect_uris: ['https://own.example/cb'], scopes: ['profile', 'read:startups'] })]);
    expect(data.api_keys).toEqual([expect.objectContaining({ name: 'My key', tier: 'standard' })]);
    expect(data.security_events.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['sign_in', 'consent_given', 'client_registered', 'api_key_created']));
    expect(data.passkeys).toEqual([{ name: 'Ada’s phone', created_at: '2026-11-01T00:00:00.000Z', last_used_at: '2026-11-02T00:00:00.000Z' }]);
    expect(data.authenticator_app).toEqual({ on: true, recovery_codes_left: 9 });
    for (const secret of [user.password, own.secret!, apiKey, granted.access_token, granted.refresh_token, passkey.id, passkey.publicKey, totpSecret, ...recoveryCodes]) {
      expect(download.text).not.toContain(secret);
    }
    expect(download.text).not.toMatch(/hash|scrypt\$|"[0-9a-f]{64}"/);
  });

  it('deletes the account and everything it owns at once: tokens, its applications and API keys refused, the address free to sign up again', async () => {
    const { user, browser, operatorApp, own, ownTokens, apiKey, granted } = await userWithEverything();
    expect((await me(t.url, granted.access_token)).status).toBe(200);
    // An API key goes beside a token (docs/using-the-api.md): one of another client, unrelated to the account.
    const { token: unrelated } = await issueTestToken(t.app, { scopes: ['read:startups'] });
    const withKey = () => http(t.url, '/api/public/v1/startups', { headers: { authorization: `Bearer ${unrelated}`, 'x-api-key': apiKey } });
    expect((await withKey()).status).toBe(200);
    const other = await signInAt(new BrowserSession(t.url), '/account', user);
    expect(other.status).toBe(200);
    await signInAt(browser, '/account/data', user);

    const form = formInputs((await browser.get('/account/data')).text, '/account/data/delete');
    const unticked = await browser.post('/account/data/delete', { ...form, current_password: user.password });
    expect(unticked.status).toBe(400);
    expect(unticked.text).toContain('Tick the box to delete. Nothing was deleted.');
    const wrong = await browser.post('/account/data/delete', { ...form, current_password: 'not the password', confirm: 'yes' });
    expect(wrong.status).toBe(400);
    expect((await me(t.url, granted.access_token)).status).toBe(200);

    const deleted = await browser.post('/account/data/delete', { ...form, current_password: user.password, confirm: 'yes' });
    expect(deleted.status).toBe(200);
    expect(deleted.text).toContain('Your account was deleted');
    for (const token of [granted.access_token, ownTokens.access_token]) expect((await me(t.url, token)).status).toBe(401);
    const keyRefused = await withKey();
    expect(keyRefused.status).toBe(401);
    expect(keyRefused.body.error.code).toBe('INVALID_API_KEY');
    const refreshed = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${operatorApp.clientId}:${operatorApp.clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: granted.refresh_token }).toString(),
    });
    expect(refreshed.status).toBe(400);
    // The application the user registered is gone: its credentials authenticate nothing.
    const ownClient = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${own.client.clientId}:${own.secret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: ownTokens.refresh_token }).toString(),
    });
    expect(ownClient.status).toBe(401);
    // Every session of the account is over; the password signs in nobody.
    expect((await browser.get('/account')).status).toBe(303);
    await expect(signInAt(new BrowserSession(t.url), '/account', user as OAuthTestUser)).rejects.toThrow(/got 400/);

    // The address can sign up again.
    const again = new BrowserSession(t.url, 'en');
    const signUp = await again.get('/account/sign-up');
    await again.post('/account/sign-up', { ...formInputs(signUp.text, '/account/sign-up'), name: 'Back again', email: user.email, password: 'a fresh start sentence' });
    await t.app.get(MailSender).deliverDue();
    expect(smtp.to(user.email).map((m) => m.subject)).toContain('Startup Platform: confirm your email address');
  });
});

describe('deleting an account with the access-token cache on (TOKEN_CACHE_TTL_MS)', () => {
  it('refuses the deleted account’s cached token at once on the instance that deleted it', async () => {
    const t = await startTestApp({ TOKEN_CACHE_TTL_MS: '60000' });
    try {
      const user = await createSignInUser(t.app);
      const client = await registerClient(t.app, { scopes: ['profile', 'read:startups'] });
      const browser = new BrowserSession(t.url, 'en');
      const granted = await tokens(t.url, { user, client } as Provisioned, browser);
      // Read once, so the grant is cached; startups, not /me, which reads the account itself.
      const startups = () => http(t.url, '/api/public/v1/startups', { headers: { authorization: `Bearer ${granted.access_token}` } });
      expect((await startups()).status).toBe(200);
      await signInAt(browser, '/account/data', user);
      const form = formInputs((await browser.get('/account/data')).text, '/account/data/delete');
      expect((await browser.post('/account/data/delete', { ...form, current_password: user.password, confirm: 'yes' })).status).toBe(200);
      expect((await startups()).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});

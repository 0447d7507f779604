import { PasskeysService } from '../../src/passkeys/passkeys.service';
import { SecurityEventsService } from '../../src/security-events/security-events.service';
import { SECURITY_MESSAGES } from '../../src/web/pages/account/security-messages';
import { PAGE_MESSAGES } from '../../src/web/pages/messages';
import { formInputs, signInAt } from '../helpers/account';
import { BrowserSession, createSignInUser, hiddenInputs, OAuthTestUser } from '../helpers/oauth';
import { SoftwareAuthenticator } from '../helpers/software-authenticator';
import { startTestApp, TestApp } from '../helpers/test-app';

const ADD = '/account/security/passkeys';

/**
 * Passkeys over HTTP, without a browser (docs/second-factor.md, "Passkeys"): a software authenticator
 * (test/helpers/software-authenticator.ts) makes real attestations and assertions with an ES256 key, and
 * the suite posts them as the pages' script does: **Add a passkey** on /account/security, then **Sign in
 * with a passkey** on the sign-in page. The service is addressed as `localhost`, its RP ID. Every wrong
 * answer (another origin or RP ID, no user verification, a replayed challenge, a wrong signature, a
 * counter that did not grow) is refused and changes nothing.
 */
describe('passkeys over HTTP with a software authenticator (docs/second-factor.md)', () => {
  let t: TestApp;
  let rpId: string;

  beforeAll(async () => {
    t = await startTestApp({}, { publicHost: 'localhost' });
    rpId = new URL(t.url).hostname;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const passkeysOf = (user: OAuthTestUser) => t.app.get(PasskeysService).list(user.id);
  const eventsOf = async (user: OAuthTestUser) => (await t.app.get(SecurityEventsService, { strict: false }).recent(user.id)).map((e) => e.type);
  /** An alert's words as the page writes them (the views escape every value). */
  const escaped = (words: string) => words.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

  /** Signed in with the password on /account/security: its registration options and the add form's hidden fields. */
  async function securityPage(user: OAuthTestUser) {
    const browser = new BrowserSession(t.url);
    const page = await signInAt(browser, '/account/security', user);
    expect(page.status).toBe(200);
    return { browser, ...addForm(page.text) };
  }

  function addForm(html: string) {
    const options = /<script type="application\/json" id="passkey-create">([^<]*)<\/script>/.exec(html)![1];
    return { options, inputs: formInputs(html, ADD) };
  }

  /** A new account with one passkey of `authenticator`, added as the security page's script adds it. */
  async function userWithPasskey(authenticator: SoftwareAuthenticator) {
    const user = await createSignInUser(t.app);
    const { browser, options, inputs } = await securityPage(user);
    const added = await browser.post(ADD, { ...inputs, name: 'My passkey', credential: authenticator.create(options) });
    expect(added.status).toBe(303);
    expect(added.location).toBe('/account/security?done=passkey_added');
    return user;
  }

  /** A fresh browser on the sign-in page: its passkey options, and a post of an answer to them. */
  async function signInPage() {
    const browser = new BrowserSession(t.url);
    const page = await browser.get('/oauth/sign-in?return_to=%2Faccount');
    const options = /<script type="application\/json" id="passkey-request">([^<]*)<\/script>/.exec(page.text)![1];
    const inputs = hiddenInputs(page.text);
    const post = (passkey: string) => browser.post('/oauth/sign-in', { ...inputs, passkey });
    return { browser, options, inputs, post };
  }

  const newAuthenticator = (attestation: 'none' | 'packed' = 'none') => new SoftwareAuthenticator({ origin: t.url, rpId, attestation });

  for (const attestation of ['none', 'packed'] as const) {
    it(`adds a passkey (attestation ${attestation}) and signs in with it alone; the stored counter follows the authenticator's`, async () => {
      const authenticator = newAuthenticator(attestation);
      const user = await userWithPasskey(authenticator);
      const [stored] = await passkeysOf(user);
      expect(stored).toMatchObject({ id: authenticator.credentialId(), name: 'My passkey', counter: 0, transports: 'internal' });
      expect(await eventsOf(user)).toContain('passkey_added');

      for (const expected of [1, 2]) {
        const { browser, options, post } = await signInPage();
        const signedIn = await post(authenticator.get(options));
        expect(signedIn.status).toBe(303);
        expect(signedIn.location).toBe('/account');
        expect((await browser.get('/account')).status).toBe(200);
        expect((await passkeysOf(user))[0].counter).toBe(expected);
      }
    });
  }

  it('refuses to add an answer made for another origin or another RP ID, or with a forged attestation signature; nothing is added', async () => {
    const user = await createSignInUser(t.app);
    const { browser, inputs } = await securityPage(user);
    const refused = escaped(SECURITY_MESSAGES.en.passkeyRefused);
    const wrong = [{ origin: 'http://evil.example' }, { rpId: 'evil.example' }, { origin: t.url.replace('localhost', '127.0.0.1') }];
    for (const overrides of wrong) {
      const { options } = addForm((await browser.get('/account/security')).text);
      const answer = await browser.post(ADD, { ...inputs, name: 'My passkey', credential: newAuthenticator().create(options, overrides) });
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(refused);
    }
    const { options } = addForm((await browser.get('/account/security')).text);
    const forged = await browser.post(ADD, { ...inputs, name: 'My passkey', credential: newAuthenticator('packed').create(options, { wrongKey: true }) });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain(refused);
    expect(await passkeysOf(user)).toEqual([]);
    expect(await eventsOf(user)).not.toContain('passkey_added');
  });

  it('refuses to add a passkey whose authenticator did not verify the user, saying why; the same options then take a verified one', async () => {
    const user = await createSignInUser(t.app);
    const { browser, options, inputs } = await securityPage(user);
    const unverified = await browser.post(ADD, { ...inputs, name: 'My passkey', credential: newAuthenticator().create(options, { userVerified: false }) });
    expect(unverified.status).toBe(400);
    expect(unverified.text).toContain(escaped(SECURITY_MESSAGES.en.passkeyUnverified));
    expect(await passkeysOf(user)).toEqual([]);
    // The refusal used no challenge: the page's options still work with user verification.
    const verified = await browser.post(ADD, { ...inputs, name: 'My passkey', credential: newAuthenticator().create(options) });
    expect(verified.status).toBe(303);
    expect(await passkeysOf(user)).toHaveLength(1);
  });

  it('takes one registration per challenge: a second answer to the same options is refused', async () => {
    const user = await createSignInUser(t.app);
    const { browser, options, inputs } = await securityPage(user);
    const authenticator = newAuthenticator();
    expect((await browser.post(ADD, { ...inputs, name: 'First', credential: authenticator.create(options) })).status).toBe(303);
    const replayed = await browser.post(ADD, { ...inputs, name: 'Second', credential: authenticator.create(options) });
    expect(replayed.status).toBe(400);
    expect((await passkeysOf(user)).map((p) => p.name)).toEqual(['First']);
  });

  it('refuses a sign-in answer for another origin or RP ID, with a wrong signature, or whose counter did not grow; none signs in or moves the counter', async () => {
    const authenticator = newAuthenticator();
    const user = await userWithPasskey(authenticator);
    const first = await signInPage();
    expect((await first.post(authenticator.get(first.options))).status).toBe(303);
    expect((await passkeysOf(user))[0].counter).toBe(1);
    const refused = escaped(PAGE_MESSAGES.en.passkeyRefused);
    // WebAuthn §7.2 step 22: a counter that did not grow past the stored one may be a cloned key.
    for (const overrides of [{ origin: 'http://evil.example' }, { rpId: 'evil.example' }, { wrongKey: true }, { signCount: 1 }]) {
      const { browser, options, post } = await signInPage();
      const answer = await post(authenticator.get(options, overrides));
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(refused);
      expect((await browser.get('/account')).status).toBe(303);
    }
    expect((await passkeysOf(user))[0].counter).toBe(1);
    const { options, post } = await signInPage();
    expect((await post(authenticator.get(options))).status).toBe(303);
    expect((await passkeysOf(user))[0].counter).toBeGreaterThan(1);
  });

  it('refuses a sign-in without user verification as a failed sign-in of the passkey\'s account, saying why', async () => {
    const authenticator = newAuthenticator();
    const user = await userWithPasskey(authenticator);
    const { browser, options, post } = await signInPage();
    const answer = await post(authenticator.get(options, { userVerified: false }));
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(escaped(PAGE_MESSAGES.en.passkeyUnverified));
    expect((await browser.get('/account')).status).toBe(303);
    expect((await eventsOf(user))[0]).toBe('sign_in_failed');
    expect((await passkeysOf(user))[0].counter).toBe(0);
  });

  it('refuses an assertion replayed, or posted in another session than the one its challenge was made for', async () => {
    const authenticator = newAuthenticator();
    await userWithPasskey(authenticator);
    const first = await signInPage();
    // A counter of 0, as synced passkeys report (WebAuthn §6.1.1): no counter check can catch the replay,
    // only the challenge's single use.
    const assertion = authenticator.get(first.options, { signCount: 0 });
    const other = await signInPage();
    expect((await other.post(assertion)).status).toBe(400);
    expect((await other.browser.get('/account')).status).toBe(303);
    // A copy of the sign-in page's cookie, taken before the sign-in renews the session.
    const copy = new BrowserSession(t.url);
    for (const [name, value] of first.browser.cookies) copy.cookies.set(name, value);
    expect((await first.post(assertion)).status).toBe(303);
    // The same form and cookie posted again: the challenge was used (on every instance).
    const replayed = await copy.post('/oauth/sign-in', { ...first.inputs, passkey: assertion });
    expect(replayed.status).toBe(400);
    expect((await copy.get('/account')).status).toBe(303);
  });

  it('counts the passwords tried to remove the last passkey as sign-in guesses: thirty at once from a borrowed session check at most SIGN_IN_MAX_FAILURES, and then even the right one waits', async () => {
    const user = await createSignInUser(t.app);
    const { browser, options, inputs } = await securityPage(user);
    expect((await browser.post(ADD, { ...inputs, name: 'Only passkey', credential: newAuthenticator().create(options) })).status).toBe(303);
    const [only] = await passkeysOf(user);
    const remove = `/account/security/passkeys/${only.id}/remove`;
    const form = formInputs((await browser.get('/account/security')).text, remove);
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => browser.post(remove, { ...form, password: `wrong guess ${i}` })));
    const statuses = guesses.map((answer) => answer.status);
    // SIGN_IN_MAX_FAILURES is 5 by default: the rest are refused before their password is checked.
    expect(statuses.filter((status) => status === 400).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(25);
    const right = await browser.post(remove, { ...form, password: user.password });
    expect([right.status, right.headers.get('retry-after')]).toEqual([429, expect.stringMatching(/^\d+$/)]);
    expect((await passkeysOf(user)).map((p) => p.id)).toEqual([only.id]);
  });

  it('keeps a passkey when two removals of an account\'s last two come at once: one goes, the other asks for the password', async () => {
    const user = await createSignInUser(t.app);
    const { browser, options, inputs } = await securityPage(user);
    expect((await browser.post(ADD, { ...inputs, name: 'Laptop', credential: newAuthenticator().create(options) })).status).toBe(303);
    const again = addForm((await browser.get('/account/security')).text);
    expect((await browser.post(ADD, { ...again.inputs, name: 'Phone', credential: newAuthenticator().create(again.options) })).status).toBe(303);
    const page = (await browser.get('/account/security')).text;
    const removals = (await passkeysOf(user)).map((passkey) => `/account/security/passkeys/${passkey.id}/remove`);
    expect(removals).toHaveLength(2);
    // Neither form carries a password: each passkey is not the last one when its page was drawn.
    const answers = await Promise.all(removals.map((action) => browser.post(action, formInputs(page, action))));
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 400]);
    expect(await passkeysOf(user)).toHaveLength(1);
  });
});

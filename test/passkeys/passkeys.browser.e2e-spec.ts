import { createHash, createPrivateKey, sign } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { TestClock } from '../helpers/clock';
import { TestSmtpServer } from '../helpers/mail';
import { MailSender } from '../../src/mail/mail-sender.service';
import { PasskeysService } from '../../src/passkeys/passkeys.service';
import { SecurityEventsService } from '../../src/security-events/security-events.service';
import { BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, OAuthTestUser, registerClient } from '../helpers/oauth';
import { checkPage } from '../helpers/pages';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;
const REDIRECT = 'http://127.0.0.1:9/callback';
const insecure = { [oauth.allowInsecureRequests]: true } as const;

const WORDS = {
  en: { email: 'Email address', password: 'Password', signIn: 'Sign in', add: 'Add a passkey', passkey: 'Sign in with a passkey', added: 'The passkey was added.', signOut: 'Sign out', allow: /^Allow/ },
  tr: { email: 'E-posta adresi', password: 'Parola', signIn: 'Oturum aç', add: 'Geçiş anahtarı ekle', passkey: 'Geçiş anahtarıyla oturum aç', added: 'Geçiş anahtarı eklendi.', signOut: 'Oturumu kapat', allow: /^İzin ver/ },
} as const;

const UNVERIFIED = {
  en: {
    add: 'The passkey did not check that it is you (a PIN, fingerprint or face), so it was not added. Use a device or security key that asks for one. Nothing was changed.',
    signIn: 'The passkey did not check that it is you (a PIN, fingerprint or face), so you are not signed in. Use a device that asks for one, or sign in with your password.',
  },
  tr: {
    add: 'Geçiş anahtarı sizin olduğunuzu doğrulamadı (PIN, parmak izi ya da yüz), bu yüzden eklenmedi. Bunlardan birini soran bir cihaz ya da güvenlik anahtarı kullanın. Hiçbir şey değişmedi.',
    signIn: 'Geçiş anahtarı sizin olduğunuzu doğrulamadı (PIN, parmak izi ya da yüz), bu yüzden oturum açılmadı. Bunlardan birini soran bir cihaz kullanın ya da parolanızla oturum açın.',
  },
} as const;

/**
 * Passkeys in Chromium with its virtual authenticator (the DevTools protocol's WebAuthn domain: CTAP2,
 * internal transport, resident keys, user verification): added on /account/security, then a full
 * sign-in with no email or password, in the authorization flow (openid-client reads `amr`) and the
 * device flow (docs/second-factor.md, "Passkeys"). The service is browsed as `localhost`, a valid
 * relying party ID.
 */
describeInBrowser('passkeys in Chromium (docs/second-factor.md)', () => {
  let t: TestApp;
  let browser: Browser;
  let rp: OAuthTestClient;
  let config: client.Configuration;
  let clock: TestClock;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    [t, browser] = await Promise.all([startTestApp({ SMTP_URL: smtp.url }, { publicHost: 'localhost' }), launchBrowser()]);
    clock = new TestClock(t.app);
    t.app.get(MailSender).stopLoop();
    rp = await registerClient(t.app, { scopes: ['openid', 'email'], redirectUris: [REDIRECT] });
    config = await client.discovery(new URL(t.url), rp.clientId, rp.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
  }, 180_000);
  afterAll(async () => {
    clock?.restore();
    await browser?.close();
    await t?.close();
    await smtp?.stop();
  });

  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;
  afterEach(async () => {
    await context?.close();
  });

  /** `isUserVerified` false: an authenticator without user verification (a key with no PIN or biometrics). */
  async function open(language: 'en' | 'tr', width: number, isUserVerified = true) {
    context = await browser.newContext({ locale: language, viewport: { width, height: 900 } });
    page = await context.newPage();
    cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: isUserVerified, isUserVerified, automaticPresenceSimulation: true },
    }));
    // Chromium's virtual authenticator answers a conditional (autofill) request at once, as if the user
    // had picked the passkey: it stays off unless a test turns it on for this tab, so that the button is
    // what those tests press.
    await page.addInitScript(() => {
      const credential = (globalThis as unknown as { PublicKeyCredential: { isConditionalMediationAvailable: () => Promise<boolean> } }).PublicKeyCredential;
      if (sessionStorage.getItem('autofill') !== 'on') credential.isConditionalMediationAvailable = async () => false;
    });
    // The client's redirect URI: answered here, so the browser stops there and the test reads the code.
    await page.route('http://127.0.0.1:9/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Callback</title><h1>Callback</h1>' }));
  }

  /** Screenshot, axe-core and the width: the check every page passes. */
  const check = (name: string) => checkPage(page, name);

  /** Signs in with the password on /account/security and adds a passkey there. */
  async function addPasskey(user: OAuthTestUser, words: (typeof WORDS)['en' | 'tr'], shots?: string) {
    await page.goto(`${t.url}/account/security`);
    await page.getByLabel(words.email).fill(user.email);
    await page.getByLabel(new RegExp(`^${words.password}$`)).fill(user.password);
    await page.getByRole('button', { name: new RegExp(`^${words.signIn}$`) }).click();
    expect(new URL(page.url()).pathname).toBe('/account/security');
    if (shots) await check(`${shots}-security`);
    await page.getByRole('button', { name: words.add }).click();
    await page.getByText(words.added).waitFor();
    if (shots) await check(`${shots}-added`);
    await page.getByRole('button', { name: words.signOut }).click();
    await page.waitForURL(/\/oauth\/sign-in/);
  }

  /**
   * Signs answers as the virtual authenticator would, with the passkey's private key taken out of it:
   * `signed` answers `challenge`, its authenticator data naming `rpId`, with the flags UP and UV (WebAuthn
   * §6.1) unless `flags` says otherwise; `answer` does so for a fresh sign-in page and posts it.
   */
  async function answerer() {
    const [credential] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    const key = createPrivateKey({ key: Buffer.from(credential.privateKey, 'base64'), format: 'der', type: 'pkcs8' });
    const id = Buffer.from(credential.credentialId, 'base64').toString('base64url');
    const signed = (challenge: string, rpId: string, signCount: number, flags = 0x05) => {
      const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: t.url, crossOrigin: false }));
      const count = Buffer.alloc(4);
      count.writeUInt32BE(signCount);
      // WebAuthn §6.1: SHA-256 of the RP ID, the flags, the signature counter.
      const authenticatorData = Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), count]);
      const message = Buffer.concat([authenticatorData, createHash('sha256').update(clientData).digest()]);
      // Whichever algorithm the authenticator chose from the server's list (Chromium 156 picks ML-DSA-44);
      // ECDSA and RSA hash with SHA-256, EdDSA and ML-DSA sign the message itself.
      const signature = sign(key.asymmetricKeyType === 'ec' || key.asymmetricKeyType === 'rsa' ? 'sha256' : null, message, key);
      return JSON.stringify({
        id,
        rawId: id,
        type: 'public-key',
        clientExtensionResults: {},
        response: { authenticatorData: authenticatorData.toString('base64url'), clientDataJSON: clientData.toString('base64url'), signature: signature.toString('base64url') },
      });
    };
    const answer = async (rpId: string, signCount: number, flags = 0x05) => {
      const session = new BrowserSession(t.url);
      const page = await session.get('/oauth/sign-in?return_to=%2Faccount');
      const options = JSON.parse(/<script type="application\/json" id="passkey-request">([^<]*)<\/script>/.exec(page.text)![1]) as { challenge: string };
      return { session, posted: await session.post('/oauth/sign-in', { ...hiddenInputs(page.text), passkey: signed(options.challenge, rpId, signCount, flags) }) };
    };
    return { signed, answer };
  }

  for (const [language, width, way] of [['en', 1280, 'button'], ['tr', 390, 'autofill']] as const) {
    it(`adds a passkey on /account/security and signs in with it alone (${way}) in the authorization flow; the ID token says amr pop+mfa (${language}, ${width} px)`, async () => {
      const words = WORDS[language];
      await open(language, width);
      const user = await createSignInUser(t.app);
      await addPasskey(user, words, `passkeys-${language}-${width}`);
      expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);

      const verifier = client.randomPKCECodeVerifier();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', nonce });
      if (way === 'button') {
        await page.goto(url.href);
        expect(await page.getAttribute('#email', 'autocomplete')).toBe('username webauthn');
        await check(`passkeys-${language}-${width}-sign-in`);
        await page.getByRole('button', { name: words.passkey }).click();
      } else {
        // Autofill (conditional mediation) on the email field: the passkey is offered, picked, and posted.
        await page.evaluate(() => sessionStorage.setItem('autofill', 'on'));
        await page.goto(url.href);
      }
      await page.getByRole('button', { name: words.allow }).click();
      await page.waitForURL(/127\.0\.0\.1:9\/callback/);
      const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedNonce: nonce, idTokenExpected: true });
      expect(tokens.claims()!.sub).toBe(String(user.id));
      expect(tokens.claims()!.amr).toEqual(['pop', 'mfa']);
    });
  }

  for (const [language, width] of [['en', 1280], ['tr', 390]] as const) {
    it(`takes a password sign-in that an application asked two factors of (acr_values) to the passkey of an account whose only second factor it is; the ID token says acr (${language}, ${width} px)`, async () => {
      const words = WORDS[language];
      await open(language, width);
      const user = await createSignInUser(t.app);
      await addPasskey(user, words);
      const verifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: 'openid email',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        acr_values: 'urn:startup-platform:acr:mfa',
      });
      await page.goto(url.href);
      await page.getByLabel(words.email).fill(user.email);
      await page.getByLabel(new RegExp(`^${words.password}$`)).fill(user.password);
      await page.getByRole('button', { name: new RegExp(`^${words.signIn}$`) }).click();
      // The password alone is not enough here: no consent, no code, the passkey asked for.
      await expect(page.getByRole('alert').textContent()).resolves.toContain(language === 'en' ? 'This application asks for a second factor' : 'Bu uygulama ikinci bir doğrulama istiyor');
      expect(new URL(page.url()).origin).toBe(new URL(t.url).origin);
      await check(`passkeys-${language}-${width}-step-up`);
      await page.getByRole('button', { name: words.passkey }).click();
      await page.getByRole('button', { name: words.allow }).click();
      await page.waitForURL(/127\.0\.0\.1:9\/callback/);
      const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, idTokenExpected: true });
      expect(tokens.claims()).toMatchObject({ sub: String(user.id), amr: ['pop', 'mfa'], acr: 'urn:startup-platform:acr:mfa' });
    });
  }

  it('signs in with the passkey in the device flow (RFC 8628)', async () => {
    await open('en', 1280);
    const user = await createSignInUser(t.app);
    await addPasskey(user, WORDS.en);
    const device = await registerClient(t.app, { type: 'public', scopes: ['openid', 'profile'], deviceFlow: true });
    const issuer = new URL(t.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
    const c: oauth.Client = { client_id: device.clientId };
    const started = await oauth.processDeviceAuthorizationResponse(as, c, await oauth.deviceAuthorizationRequest(as, c, oauth.None(), { scope: 'openid profile' }, insecure));

    await page.goto(started.verification_uri_complete!);
    await page.getByRole('button', { name: /^Continue/ }).click();
    expect(new URL(page.url()).pathname).toBe('/oauth/sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('button', { name: /^Allow/ }).click();
    await page.getByText(/Go back to your device/).waitFor();
    // RFC 8628 §3.5: the device polls no faster than the interval (the app's clock, moved by the test).
    clock.advance((started.interval ?? 5) * 1000);
    const tokens = await oauth.processDeviceCodeResponse(as, c, await oauth.deviceCodeGrantRequest(as, c, oauth.None(), started.device_code, insecure));
    expect(oauth.getValidatedIdTokenClaims(tokens)!.amr).toEqual(['pop', 'mfa']);
  });

  it('renames a passkey, and removes the last one only with the password; adding and removing each a security event and a notice mail', async () => {
    await open('en', 390);
    const user = await createSignInUser(t.app);
    await addPasskey(user, WORDS.en);
    await page.goto(`${t.url}/account/security`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(/\/account\/security/);

    await page.getByLabel('New name for My passkey').fill('Work laptop');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByText('The passkey was renamed.').waitFor();
    expect(await page.locator('table.passkeys').innerText()).toContain('Work laptop');

    await page.getByRole('button', { name: 'Remove: Work laptop' }).click();
    await page.getByText('Removing your last passkey needs your password or a current code. Nothing was changed.').waitFor();
    await check('passkeys-en-390-remove-refused');
    await page.getByLabel('Your password').fill(user.password);
    await page.getByRole('button', { name: 'Remove: Work laptop' }).click();
    await page.getByText('The passkey was removed.').waitFor();
    expect(await page.locator('table.passkeys').count()).toBe(0);
    await check('passkeys-en-390-removed');

    const events = (await t.app.get(SecurityEventsService, { strict: false }).recent(user.id)).map((e) => e.type);
    expect(events).toEqual(expect.arrayContaining(['passkey_added', 'passkey_removed']));
    // Two notices; the rename and the refused removal mailed nothing. The passkey's name, the words of
    // whoever added it, is in the event only, never in a mail from the platform.
    await t.app.get(MailSender).deliverDue();
    const mails = smtp.to(user.email);
    expect(mails.map((m) => m.subject)).toEqual(['Startup Platform: a passkey was added to your account', 'Startup Platform: a passkey was removed from your account']);
    expect(mails[0].text).toContain('A passkey was added to your Startup Platform account.');
    expect(mails[1].text).toContain('A passkey was removed from your Startup Platform account.');
    expect(mails[1].links).toEqual([`${t.url}/account/security`, `${t.url}/account/forgot-password`]);
    for (const mail of mails) expect(mail.text + mail.html).not.toMatch(/My passkey|Work laptop/);
    // The owner reads which passkey it was on /account.
    await page.goto(`${t.url}/account`);
    await page.getByText('Passkey removed: Work laptop').waitFor();
    await page.getByText('Passkey added: My passkey').waitFor();
    await check('passkeys-en-390-account-events');
  });

  it('refuses a passkey answer made for another relying party, and accepts the same answer made for this one', async () => {
    await open('en', 1280);
    const user = await createSignInUser(t.app);
    await addPasskey(user, WORDS.en);
    const { answer } = await answerer();
    const foreign = await answer('evil.example', 1000);
    expect(foreign.posted.status).toBe(400);
    expect((await foreign.session.get('/account')).status).toBe(303);
    const own = await answer('localhost', 1001);
    expect(own.posted.status).toBe(303);
  });

  it('refuses an assertion posted in another session, accepts it in its own once, and refuses it replayed', async () => {
    await open('en', 1280);
    const user = await createSignInUser(t.app);
    await addPasskey(user, WORDS.en);
    await page.goto(`${t.url}/oauth/sign-in?return_to=%2Faccount`);
    // The assertion the page would post, held back from the server.
    const posted = new Promise<string>((resolve) => {
      void page.route(`${t.url}/oauth/sign-in`, async (route) => {
        resolve(route.request().postData() ?? '');
        await route.abort();
      });
    });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    const form = Object.fromEntries(new URLSearchParams(await posted));
    expect(form.passkey).toMatch(/^\{/);

    // Another browser, its own session and CSRF token: the challenge is not its session's.
    const other = new BrowserSession(t.url);
    const otherPage = await other.get('/oauth/sign-in?return_to=%2Faccount');
    const foreign = await other.post('/oauth/sign-in', { ...hiddenInputs(otherPage.text), passkey: form.passkey });
    expect(foreign.status).toBe(400);
    expect(foreign.text).toContain('Signing in with this passkey did not work.');
    expect((await other.get('/account')).status).toBe(303);

    // Its own session (the page's cookie): a full sign-in, once.
    const own = new BrowserSession(t.url);
    for (const cookie of await context.cookies(t.url)) own.cookies.set(cookie.name, cookie.value);
    const accepted = await own.post('/oauth/sign-in', form);
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe('/account');
    const replay = new BrowserSession(t.url);
    for (const cookie of await context.cookies(t.url)) replay.cookies.set(cookie.name, cookie.value);
    const replayed = await replay.post('/oauth/sign-in', form);
    expect(replayed.status).toBe(400);
  });

  for (const [language, width] of [['en', 390], ['tr', 1280]] as const) {
    it(`refuses to add a passkey whose authenticator did not verify the user, saying why; nothing is added (${language}, ${width} px)`, async () => {
      await open(language, width, false);
      // An authenticator that cannot verify the user (no PIN, no biometrics), in a browser that does not
      // pass the requirement on (the options say `required`): it answers without the UV flag, and the
      // server alone stands in the way.
      await page.addInitScript({
        content: `(() => {
          const create = navigator.credentials.create.bind(navigator.credentials);
          navigator.credentials.create = (options) => {
            const selection = options && options.publicKey && options.publicKey.authenticatorSelection;
            if (selection) selection.userVerification = 'discouraged';
            return create(options);
          };
        })();`,
      });
      const user = await createSignInUser(t.app);
      const words = WORDS[language];
      await page.goto(`${t.url}/account/security`);
      await page.getByLabel(words.email).fill(user.email);
      await page.getByLabel(new RegExp(`^${words.password}$`)).fill(user.password);
      await page.getByRole('button', { name: new RegExp(`^${words.signIn}$`) }).click();
      expect(JSON.parse((await page.locator('#passkey-create').textContent())!).authenticatorSelection.userVerification).toBe('required');
      await page.getByRole('button', { name: words.add }).click();
      await page.getByText(UNVERIFIED[language].add).waitFor();
      await check(`passkeys-${language}-${width}-unverified`);
      expect(await t.app.get(PasskeysService).list(user.id)).toEqual([]);
      const events = (await t.app.get(SecurityEventsService, { strict: false }).recent(user.id)).map((e) => e.type);
      expect(events).not.toContain('passkey_added');
    });
  }

  for (const [language, width] of [['en', 1280], ['tr', 390]] as const) {
    it(`refuses a sign-in with a passkey made with user verification whose answer comes without it: a failed sign-in, and the page says why (${language}, ${width} px)`, async () => {
      await open(language, width);
      const user = await createSignInUser(t.app);
      await addPasskey(user, WORDS[language]);
      const { signed } = await answerer();
      /** Posts a passkey answer to the challenge of the sign-in page open in the browser, as its script does. */
      const postFromPage = async (signCount: number, flags: number) => {
        await page.goto(`${t.url}/oauth/sign-in?return_to=%2Faccount`);
        const { challenge } = JSON.parse((await page.locator('#passkey-request').textContent())!) as { challenge: string };
        const passkey = signed(challenge, 'localhost', signCount, flags);
        await Promise.all([
          page.waitForNavigation(),
          // The sign-in form's script appends the same hidden field and submits (views/scripts/passkeys.js).
          page.evaluate(`(() => {
            const form = document.getElementById('passkey-sign-in').closest('form');
            const field = Object.assign(document.createElement('input'), { type: 'hidden', name: 'passkey', value: ${JSON.stringify(passkey)} });
            form.appendChild(field);
            form.submit();
          })()`),
        ]);
      };
      // Genuinely signed by the passkey, the flag UP set and UV not: refused, a failed sign-in of its account.
      await postFromPage(2000, 0x01);
      await page.getByText(UNVERIFIED[language].signIn).waitFor();
      await check(`passkeys-${language}-${width}-sign-in-unverified`);
      expect(new URL(page.url()).pathname).toBe('/oauth/sign-in');
      const events = (await t.app.get(SecurityEventsService, { strict: false }).recent(user.id)).map((e) => e.type);
      expect(events[0]).toBe('sign_in_failed');
      expect((await page.goto(`${t.url}/account`))!.url()).toMatch(/\/oauth\/sign-in/);
      // The same key with UV: signed in (the refusal moved no counter and used no challenge of this page).
      await postFromPage(2000, 0x05);
      expect(new URL(page.url()).pathname).toBe('/account');
    });
  }
});

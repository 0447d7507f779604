import { http } from '../helpers/http';
import { authorizePath, basicAuth, BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';
import { s256Challenge } from '../../src/oauth/pkce';
import { ClientsService } from '../../src/clients/clients.service';

const VERIFIER = 'l'.repeat(64);
const REDIRECT = 'http://127.0.0.1:9/callback';
const SIGNED_OUT = 'http://127.0.0.1:9/signed-out';

/**
 * RP-Initiated Logout without a valid `id_token_hint` for the signed-in user (SECURITY.md "Forced
 * sign-out"): any site can make a browser GET /oauth/logout, so without such a hint nothing ends and
 * nothing redirects until the user confirms on a CSRF-protected form.
 */
describe('GET /oauth/logout without a valid id_token_hint for the signed-in user asks the user first', () => {
  let t: TestApp;
  let rp: OAuthTestClient;
  let ada: OAuthTestUser;
  let grace: OAuthTestUser;

  beforeAll(async () => {
    t = await startTestApp();
    rp = await registerClient(t.app, { scopes: ['openid', 'profile'], redirectUris: [REDIRECT, SIGNED_OUT] });
    ada = await createSignInUser(t.app);
    grace = await createSignInUser(t.app);
  });
  afterAll(() => t.close());

  /** A browser signed in as `user`, and an ID token the client got for that user. */
  async function signedIn(user: OAuthTestUser): Promise<{ browser: BrowserSession; idToken: string }> {
    const browser = new BrowserSession(t.url);
    const url = authorizePath({
      response_type: 'code',
      client_id: rp.clientId,
      redirect_uri: REDIRECT,
      scope: 'openid profile',
      code_challenge: s256Challenge(VERIFIER),
      code_challenge_method: 'S256',
    });
    const code = (await runAuthorization(browser, url, user)).searchParams.get('code')!;
    const res = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(rp.clientId, rp.clientSecret!) },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }).toString(),
    });
    expect(res.status).toBe(200);
    return { browser, idToken: res.body.id_token };
  }

  const isSignedIn = async (browser: BrowserSession) => (await browser.get('/account')).status === 200;
  const logoutPath = (params: Record<string, string>) => `/oauth/logout?${new URLSearchParams(params).toString()}`;

  function expectConfirmationPage(res: { status: number; text: string; location?: string; headers: Headers }) {
    expect([res.status, res.location]).toEqual([200, undefined]);
    expect(res.text).toContain('<form method="post" action="/oauth/logout">');
    expect(res.text).toContain('name="decision" value="sign_out"');
    expect(res.text).toContain('name="decision" value="stay"');
    expect(res.headers.getSetCookie().join('\n')).not.toMatch(/sp_session=;/);
  }

  it('shows the confirmation page to a signed-in user without a hint, and the session lives on', async () => {
    const { browser } = await signedIn(ada);
    const res = await browser.get(logoutPath({ client_id: rp.clientId, post_logout_redirect_uri: SIGNED_OUT, state: 'bye "1" <b>' }));
    expectConfirmationPage(res);
    expect(res.text).toContain('Sign out of Startup Platform?');
    // The request rides along in hidden fields, escaped.
    expect(hiddenInputs(res.text)).toEqual({ csrf_token: expect.any(String), client_id: rp.clientId, post_logout_redirect_uri: SIGNED_OUT, state: 'bye "1" <b>' });
    expect(res.text).not.toContain('<b>');
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:9");
    expect(await isSignedIn(browser)).toBe(true);
  });

  it('cannot be used by another site to sign the user out: a cross-site GET ends nothing, a cross-site post is refused', async () => {
    const { browser } = await signedIn(ada);
    // What a browser sends for a link, an <img> or a top-level navigation started on another site.
    const crossSite = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', referer: 'https://evil.example/' };
    for (const path of ['/oauth/logout', logoutPath({ client_id: rp.clientId, post_logout_redirect_uri: SIGNED_OUT })]) {
      expectConfirmationPage(await browser.get(path, crossSite));
      expect([path, await isSignedIn(browser)]).toEqual([path, true]);
    }
    // A form on the other site posting the confirmation: refused before the token is looked at.
    const form = hiddenInputs((await browser.get('/oauth/logout')).text);
    const forged = await browser.post('/oauth/logout', { ...form, decision: 'sign_out' }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect([forged.status, forged.location]).toEqual([403, undefined]);
    expect(forged.text).toContain('<a href="/account">');
    expect(await isSignedIn(browser)).toBe(true);
  });

  it('refuses a post without the session\'s CSRF token with a 403 page, the session kept', async () => {
    const { browser } = await signedIn(ada);
    const { browser: other } = await signedIn(grace);
    const othersToken = hiddenInputs((await other.get('/oauth/logout')).text).csrf_token;
    for (const token of [undefined, '', 'x'.repeat(40), othersToken]) {
      const fields: Record<string, string> = { decision: 'sign_out' };
      if (token !== undefined) fields.csrf_token = token;
      const res = await browser.post('/oauth/logout', fields);
      expect([res.status, res.location]).toEqual([403, undefined]);
      expect(res.text).toContain('<a href="/account">');
    }
    expect(await isSignedIn(browser)).toBe(true);
    expect(await isSignedIn(other)).toBe(true);
  });

  it('"Stay signed in" keeps the session and goes to the account page, not to the application', async () => {
    const { browser } = await signedIn(ada);
    const page = await browser.get(logoutPath({ client_id: rp.clientId, post_logout_redirect_uri: SIGNED_OUT, state: 's' }));
    const res = await browser.post('/oauth/logout', { ...hiddenInputs(page.text), decision: 'stay' });
    expect([res.status, res.location]).toEqual([303, '/account']);
    expect(await isSignedIn(browser)).toBe(true);
  });

  it('"Sign out" ends the session on the server and returns to the registered address with state', async () => {
    const { browser } = await signedIn(ada);
    const copy = new BrowserSession(t.url);
    for (const [name, value] of browser.cookies) copy.cookies.set(name, value);
    const page = await browser.get(logoutPath({ client_id: rp.clientId, post_logout_redirect_uri: SIGNED_OUT, state: 'bye 1' }));
    const res = await browser.post('/oauth/logout', { ...hiddenInputs(page.text), decision: 'sign_out' });
    expect([res.status, res.location]).toEqual([303, `${SIGNED_OUT}?state=bye+1`]);
    expect(res.headers.getSetCookie().join('\n')).toMatch(/sp_session=;/);
    expect(await isSignedIn(browser)).toBe(false);
    // A copy of the cookie taken before no longer signs anyone in.
    expect(await isSignedIn(copy)).toBe(false);
  });

  it('"Sign out" without a return address shows the signed-out page, in en and tr', async () => {
    for (const language of ['en', 'tr']) {
      const { browser } = await signedIn(ada);
      const localized = new BrowserSession(t.url, language);
      for (const [name, value] of browser.cookies) localized.cookies.set(name, value);
      const page = await localized.get('/oauth/logout');
      expect(page.text).toContain(language === 'en' ? 'Stay signed in' : 'Oturumum açık kalsın');
      const res = await localized.post('/oauth/logout', { ...hiddenInputs(page.text), decision: 'sign_out' });
      expect(res.status).toBe(200);
      expect(res.text).toContain(language === 'en' ? 'You are signed out' : 'Oturumunuz kapatıldı');
      expect(await isSignedIn(localized)).toBe(false);
    }
  });

  it('checks the carried fields again: an edited return address, a repeated field or no decision is refused and ends nothing', async () => {
    const { browser } = await signedIn(ada);
    const form = hiddenInputs((await browser.get(logoutPath({ client_id: rp.clientId, post_logout_redirect_uri: SIGNED_OUT }))).text);
    const attempts: Array<[Record<string, string | string[]>, number, string]> = [
      [{ ...form, post_logout_redirect_uri: 'https://evil.example/', decision: 'sign_out' }, 400, 'post_logout_redirect_uri'],
      [{ ...form, client_id: 'sp_client_nobody', decision: 'sign_out' }, 400, 'cannot be told'],
      [{ ...form, post_logout_redirect_uri: [SIGNED_OUT, 'https://evil.example/'], decision: 'sign_out' }, 400, 'more than once'],
      [{ ...form }, 400, 'neither to sign out'],
      [{ ...form, decision: 'maybe' }, 400, 'neither to sign out'],
    ];
    for (const [fields, status, message] of attempts) {
      const res = await browser.post('/oauth/logout', fields);
      expect([message, res.status, res.location]).toEqual([message, status, undefined]);
      expect(res.text).toContain(message);
      expect(res.text).toContain('<a href="/account">');
    }
    expect(await isSignedIn(browser)).toBe(true);
  });

  it('asks as well when the hint names another user, and then returns to the hint\'s client', async () => {
    const { idToken: gracesToken } = await signedIn(grace);
    const { browser } = await signedIn(ada);
    const page = await browser.get(logoutPath({ id_token_hint: gracesToken, post_logout_redirect_uri: SIGNED_OUT, state: 'x' }));
    expectConfirmationPage(page);
    expect(await isSignedIn(browser)).toBe(true);
    // The hint is not carried; its client is, so the address is checked against that client again.
    const form = hiddenInputs(page.text);
    expect(form).toEqual({ csrf_token: expect.any(String), client_id: rp.clientId, post_logout_redirect_uri: SIGNED_OUT, state: 'x' });
    const res = await browser.post('/oauth/logout', { ...form, decision: 'sign_out' });
    expect([res.status, res.location]).toEqual([303, `${SIGNED_OUT}?state=x`]);
    expect(await isSignedIn(browser)).toBe(false);
  });

  it('with a valid hint for the signed-in user still ends the session at once', async () => {
    const { browser, idToken } = await signedIn(ada);
    const res = await browser.get(logoutPath({ id_token_hint: idToken, post_logout_redirect_uri: SIGNED_OUT, state: 'now' }));
    expect([res.status, res.location]).toEqual([302, `${SIGNED_OUT}?state=now`]);
    expect(await isSignedIn(browser)).toBe(false);
  });

  it('never redirects a visitor who is not signed in unless a valid hint vouches for the address', async () => {
    const visitor = new BrowserSession(t.url);
    const res = await visitor.get(logoutPath({ client_id: rp.clientId, post_logout_redirect_uri: SIGNED_OUT, state: 's' }));
    expect([res.status, res.location]).toEqual([200, undefined]);
    expect(res.text).toContain('You are signed out');
    // An anonymous session has a CSRF token too, but nothing to end: no redirect either.
    const page = await visitor.get(authorizePath({ response_type: 'code', client_id: rp.clientId, redirect_uri: REDIRECT, scope: 'openid', code_challenge: s256Challenge(VERIFIER), code_challenge_method: 'S256' }));
    const csrf = hiddenInputs(page.text).csrf_token;
    expect(csrf).toEqual(expect.any(String));
    const posted = await visitor.post('/oauth/logout', { csrf_token: csrf, client_id: rp.clientId, post_logout_redirect_uri: SIGNED_OUT, decision: 'sign_out' });
    expect([posted.status, posted.location]).toEqual([200, undefined]);
    // With the hint of a user (no one signed in here), the address is vouched for: as before, a 302.
    const { idToken } = await signedIn(ada);
    const hinted = await new BrowserSession(t.url).get(logoutPath({ id_token_hint: idToken, post_logout_redirect_uri: SIGNED_OUT }));
    expect([hinted.status, hinted.location]).toEqual([302, SIGNED_OUT]);
  });

  it('does not send a visitor who is not signed in on to an unverified application: the hint is that application’s own word', async () => {
    // Anyone registers an application in the portal (unverified), signs in to it once and keeps the ID token.
    const evil = await registerClient(t.app, { scopes: ['openid', 'profile'], redirectUris: [REDIRECT, 'https://evil.example/login'] });
    await t.app.get(ClientsService, { strict: false }).setVerified(evil.clientId, false);
    const saved = rp;
    rp = evil;
    const { idToken } = await signedIn(grace).finally(() => (rp = saved));
    const visitor = new BrowserSession(t.url);
    const res = await visitor.get(logoutPath({ id_token_hint: idToken, post_logout_redirect_uri: 'https://evil.example/login', state: 'x' }));
    expect([res.status, res.location]).toEqual([200, undefined]);
    expect(res.text).toContain('You are signed out');
    expect(res.text).toContain('is an unverified application');
    expect(res.text).toContain('<a href="https://evil.example/login?state=x" rel="noreferrer">Go back to <strong>evil.example</strong></a>');
    // The signed-in user whose hint it is still goes back at once: they signed in to it.
    rp = evil;
    const mine = await signedIn(grace).finally(() => (rp = saved));
    const back = await mine.browser.get(logoutPath({ id_token_hint: mine.idToken, post_logout_redirect_uri: 'https://evil.example/login' }));
    expect([back.status, back.location]).toEqual([302, 'https://evil.example/login']);
    expect(await isSignedIn(mine.browser)).toBe(false);
  });

  it('links every error page back to the account page', async () => {
    const { browser } = await signedIn(ada);
    for (const path of [
      logoutPath({ id_token_hint: 'not.a.token' }),
      logoutPath({ client_id: rp.clientId, post_logout_redirect_uri: 'https://evil.example/' }),
      logoutPath({ post_logout_redirect_uri: SIGNED_OUT }),
      '/oauth/logout?state=a&state=b',
    ]) {
      const res = await browser.get(path);
      expect([path, res.status, res.text.includes('<a href="/account">')]).toEqual([path, 400, true]);
    }
    expect(await isSignedIn(browser)).toBe(true);
  });
});

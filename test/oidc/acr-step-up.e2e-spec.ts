import * as client from 'openid-client';
import { TestClock } from '../helpers/clock';
import { BrowserResponse, BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, OAuthTestUser, registerClient } from '../helpers/oauth';
import { totpCode, turnOnAuthenticator } from '../helpers/second-factor';
import { startTestApp, TestApp } from '../helpers/test-app';

const REDIRECT = 'http://127.0.0.1:9/callback';
const MFA = 'urn:startup-platform:acr:mfa';

/**
 * Step-up for relying parties (docs/integrate-with-oauth.md, "Asking for a second factor"; OIDC Core
 * §3.1.2.1 `acr_values`, §2 `acr`), read by openid-client as a relying party: a request that asks for
 * MFA gets no code before two factors, its ID token says `acr`, also after refresh; an account without a
 * second factor gets access_denied; without acr_values nothing changes.
 */
describe('acr_values urn:startup-platform:acr:mfa (step-up)', () => {
  let t: TestApp;
  let clock: TestClock;
  let rp: OAuthTestClient;
  let config: client.Configuration;

  beforeAll(async () => {
    t = await startTestApp();
    clock = new TestClock(t.app);
    rp = await registerClient(t.app, { scopes: ['openid', 'email'], redirectUris: [REDIRECT] });
    config = await client.discovery(new URL(t.url), rp.clientId, rp.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
  });
  afterAll(async () => {
    clock.restore();
    await t.close();
  });

  async function start(extra: Record<string, string> = {}, par = false) {
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const parameters = { redirect_uri: REDIRECT, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', nonce, ...extra };
    const url = par ? await client.buildAuthorizationUrlWithPAR(config, parameters) : client.buildAuthorizationUrl(config, parameters);
    return { url, verifier, nonce };
  }

  /** Password when asked, the code when asked, consent when asked: what a person does. */
  async function throughPages(browser: BrowserSession, first: BrowserResponse, user: OAuthTestUser, secret?: string, seen: string[] = []): Promise<BrowserResponse> {
    let response = first;
    if (response.status === 200 && response.text.includes('name="password"')) {
      seen.push('password');
      response = await browser.post('/oauth/sign-in', { ...hiddenInputs(response.text), email: user.email, password: user.password });
    }
    if (response.status === 200 && response.text.includes('name="code"')) {
      seen.push('code');
      if (!secret) throw new Error('asked for a code');
      response = await browser.post('/oauth/sign-in', { ...hiddenInputs(response.text), code: totpCode(secret, clock.now()) });
    }
    if (response.status === 200 && response.text.includes('name="decision"')) {
      seen.push('consent');
      response = await browser.post('/oauth/consent', { ...hiddenInputs(response.text), decision: 'approve' });
    }
    return response;
  }

  async function codeFlow(browser: BrowserSession, user: OAuthTestUser, secret?: string, extra: Record<string, string> = {}, options: { par?: boolean; seen?: string[] } = {}) {
    const { url, verifier, nonce } = await start(extra, options.par);
    const back = await throughPages(browser, await browser.get(url.href), user, secret, options.seen);
    if (!back.location) throw new Error(`no redirect: ${back.status} ${back.text.slice(0, 300)}`);
    return client.authorizationCodeGrant(config, new URL(back.location), { pkceCodeVerifier: verifier, expectedNonce: nonce, idTokenExpected: true });
  }

  async function withAuthenticator(user?: OAuthTestUser): Promise<{ user: OAuthTestUser; secret: string }> {
    const owner = user ?? (await createSignInUser(t.app));
    const { secret } = await turnOnAuthenticator(new BrowserSession(t.url), owner, () => clock.now());
    clock.advance(30_000);
    return { user: owner, secret };
  }

  it('lists the class in acr_values_supported (and acr in claims_supported) on both discovery documents', async () => {
    expect(config.serverMetadata().acr_values_supported).toEqual([MFA]);
    expect(config.serverMetadata().claims_supported).toContain('acr');
    const oauthMetadata = (await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json()) as { acr_values_supported: string[] };
    expect(oauthMetadata.acr_values_supported).toEqual([MFA]);
  });

  it('issues the code after the password and the authenticator code, and the ID token says acr, also after refresh', async () => {
    const { user, secret } = await withAuthenticator();
    const tokens = await codeFlow(new BrowserSession(t.url), user, secret, { acr_values: MFA });
    expect(tokens.claims()).toMatchObject({ acr: MFA, amr: ['pwd', 'otp', 'mfa'] });
    clock.advance(60_000);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()).toMatchObject({ acr: MFA, amr: ['pwd', 'otp', 'mfa'] });
  });

  it('steps a session that signed in with the password only up to the code before a code is issued, not past it', async () => {
    const user = await createSignInUser(t.app);
    const browser = new BrowserSession(t.url);
    // Signed in with the password only (no second factor then).
    expect((await codeFlow(browser, user)).claims()!.amr).toEqual(['pwd']);
    const { secret } = await withAuthenticator(user);

    const { url, verifier, nonce } = await start({ acr_values: MFA });
    const asked = await browser.get(url.href);
    // Not a redirect with a code: the code page of the same session.
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('name="code"');
    expect(asked.text).not.toContain('name="password"');
    // No password was just given: the page says why it asks.
    expect(asked.text).toContain('This application asks for a second factor.');
    expect(asked.text).not.toContain('Your password is correct.');
    const wrong = await browser.post('/oauth/sign-in', { ...hiddenInputs(asked.text), code: '000000' === totpCode(secret, clock.now()) ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.location).toBeUndefined();
    expect(wrong.text).toContain('This application asks for a second factor.');
    const coded = await browser.post('/oauth/sign-in', { ...hiddenInputs(wrong.text), code: totpCode(secret, clock.now()) });
    const back = await throughPages(browser, coded, user, secret);
    const tokens = await client.authorizationCodeGrant(config, new URL(back.location!), { pkceCodeVerifier: verifier, expectedNonce: nonce, idTokenExpected: true });
    expect(tokens.claims()).toMatchObject({ acr: MFA, amr: ['pwd', 'otp', 'mfa'] });

    // prompt=none cannot step up: login_required, never a code.
    const other = new BrowserSession(t.url);
    await codeFlow(other, await createSignInUser(t.app));
    const quiet = await other.get((await start({ acr_values: MFA, prompt: 'none' })).url.href);
    expect(quiet.status).toBe(302);
    expect(new URL(quiet.location!).searchParams.get('error')).toBe('login_required');
  });

  it('answers access_denied, saying why, for an account without a second factor (fresh sign-in and signed-in session alike)', async () => {
    const user = await createSignInUser(t.app);
    const browser = new BrowserSession(t.url);
    const { url, verifier } = await start({ acr_values: MFA, state: 'st-1' });
    const back = await throughPages(browser, await browser.get(url.href), user);
    expect(back.status).toBe(303);
    const callback = new URL(back.location!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    await expect(client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'st-1' })).rejects.toMatchObject({
      error: 'access_denied',
      error_description: expect.stringContaining('this account has none: neither an authenticator app nor a passkey'),
    });
    // The same person, signed in now: again access_denied, at once.
    const again = await browser.get((await start({ acr_values: MFA })).url.href);
    expect(again.status).toBe(302);
    expect(new URL(again.location!).searchParams.get('error')).toBe('access_denied');
  });

  it('changes nothing without acr_values: no acr claim, and a password sign-in gets its code', async () => {
    const user = await createSignInUser(t.app);
    const tokens = await codeFlow(new BrowserSession(t.url), user);
    expect(tokens.claims()!.acr).toBeUndefined();
    const { user: withCode, secret } = await withAuthenticator();
    const mfa = await codeFlow(new BrowserSession(t.url), withCode, secret, { acr_values: 'urn:other:class' });
    expect(mfa.claims()!.acr).toBeUndefined();
    expect(mfa.claims()!.amr).toEqual(['pwd', 'otp', 'mfa']);
  });

  it('carries acr_values through a pushed authorization request (RFC 9126)', async () => {
    const { user, secret } = await withAuthenticator();
    const seen: string[] = [];
    const tokens = await codeFlow(new BrowserSession(t.url), user, secret, { acr_values: MFA }, { par: true, seen });
    expect(seen).toContain('code');
    expect(tokens.claims()!.acr).toBe(MFA);
  });

  it('refuses acr_values asking for two factors in the device flow out loud (invalid_request), rather than ignoring it', async () => {
    const device = await registerClient(t.app, { type: 'public', scopes: ['openid'], deviceFlow: true });
    const ask = (extra: Record<string, string>) =>
      fetch(`${t.url}/oauth/device_authorization`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: device.clientId, scope: 'openid', ...extra }) });
    const refused = await ask({ acr_values: MFA });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('not supported in the device flow') });
    expect((await ask({})).status).toBe(200);
  });
});

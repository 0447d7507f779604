import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { TestClock } from '../helpers/clock';
import { BrowserResponse, BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, OAuthTestUser, registerClient } from '../helpers/oauth';
import { totpCode, turnOnAuthenticator } from '../helpers/second-factor';
import { startTestApp, TestApp } from '../helpers/test-app';

const REDIRECT = 'http://127.0.0.1:9/callback';
const insecure = { [oauth.allowInsecureRequests]: true } as const;

/**
 * RFC 8176 `amr` in ID tokens (docs/integrate-with-oauth.md, "How the user signed in"), read by
 * openid-client and oauth4webapi as relying parties: `["pwd"]` for a password, `["pwd","otp","mfa"]`
 * with an authenticator code, the same in every ID token of the grant's refreshes, in the code flow and
 * the device flow alike.
 */
describe('amr in ID tokens (RFC 8176)', () => {
  let t: TestApp;
  let clock: TestClock;
  let rp: OAuthTestClient;
  let config: client.Configuration;

  beforeAll(async () => {
    t = await startTestApp();
    clock = new TestClock(t.app);
    rp = await registerClient(t.app, { scopes: ['openid', 'profile', 'email'], redirectUris: [REDIRECT] });
    config = await client.discovery(new URL(t.url), rp.clientId, rp.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
    client.enableNonRepudiationChecks(config);
  });
  afterAll(async () => {
    clock.restore();
    await t.close();
  });

  /** The pages a person goes through: password, then the code when the page asks for it, then consent. */
  async function throughPages(browser: BrowserSession, start: BrowserResponse, user: OAuthTestUser, secret?: string): Promise<BrowserResponse> {
    let response = start;
    if (response.status === 200 && response.text.includes('name="password"')) {
      response = await browser.post('/oauth/sign-in', { ...hiddenInputs(response.text), email: user.email, password: user.password });
    }
    if (response.status === 200 && response.text.includes('name="code"')) {
      if (!secret) throw new Error('asked for a code');
      response = await browser.post('/oauth/sign-in', { ...hiddenInputs(response.text), code: totpCode(secret, clock.now()) });
    }
    if (response.status === 200 && response.text.includes('name="decision"')) {
      response = await browser.post('/oauth/consent', { ...hiddenInputs(response.text), decision: 'approve' });
    }
    return response;
  }

  async function codeFlow(browser: BrowserSession, user: OAuthTestUser, secret?: string, extra: Record<string, string> = {}) {
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      ...extra,
    });
    const back = await throughPages(browser, await browser.get(url.href), user, secret);
    if (!back.location) throw new Error(`no redirect: ${back.status} ${back.text.slice(0, 200)}`);
    return client.authorizationCodeGrant(config, new URL(back.location), { pkceCodeVerifier: verifier, expectedNonce: nonce, idTokenExpected: true, maxAge: extra.max_age === undefined ? undefined : Number(extra.max_age) });
  }

  async function withAuthenticator(): Promise<{ user: OAuthTestUser; secret: string }> {
    const user = await createSignInUser(t.app);
    const { secret } = await turnOnAuthenticator(new BrowserSession(t.url), user, () => clock.now());
    clock.advance(30_000);
    return { user, secret };
  }

  it('advertises amr in claims_supported', () => {
    expect(config.serverMetadata().claims_supported).toContain('amr');
  });

  it('says ["pwd"] for a password sign-in, and again in the ID token of each refresh', async () => {
    const user = await createSignInUser(t.app);
    const tokens = await codeFlow(new BrowserSession(t.url), user);
    expect(tokens.claims()!.amr).toEqual(['pwd']);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()!.amr).toEqual(['pwd']);
  });

  it('says ["pwd","otp","mfa"] after the password and an authenticator code, kept across refreshes of that grant', async () => {
    const { user, secret } = await withAuthenticator();
    const tokens = await codeFlow(new BrowserSession(t.url), user, secret);
    expect(tokens.claims()!.amr).toEqual(['pwd', 'otp', 'mfa']);
    clock.advance(60_000);
    const first = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(first.claims()!.amr).toEqual(['pwd', 'otp', 'mfa']);
    const second = await client.refreshTokenGrant(config, first.refresh_token!);
    expect(second.claims()!.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(second.claims()!.auth_time).toBe(tokens.claims()!.auth_time);
  });

  it('keeps prompt=login and max_age meaning "sign in again", both steps, and states the new sign-in', async () => {
    const { user, secret } = await withAuthenticator();
    const browser = new BrowserSession(t.url);
    const first = await codeFlow(browser, user, secret);
    clock.advance(60_000);
    // Signed in already: no page, the same amr.
    const quiet = await codeFlow(browser, user, secret);
    expect(quiet.claims()!.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(quiet.claims()!.auth_time).toBe(first.claims()!.auth_time);

    const again = await browser.get(
      client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', prompt: 'login' }).href,
    );
    expect(again.text).toContain('name="password"');
    clock.advance(30_000);
    const fresh = await codeFlow(browser, user, secret, { max_age: '0' });
    expect(fresh.claims()!.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(fresh.claims()!.auth_time).toBeGreaterThan(first.claims()!.auth_time!);
  });

  it('says ["pwd","otp","mfa"] in the device flow (RFC 8628), whose sign-in asks for the code too', async () => {
    const { user, secret } = await withAuthenticator();
    const device = await registerClient(t.app, { type: 'public', scopes: ['openid', 'profile'], deviceFlow: true });
    const issuer = new URL(t.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
    const c: oauth.Client = { client_id: device.clientId };
    const started = await oauth.processDeviceAuthorizationResponse(as, c, await oauth.deviceAuthorizationRequest(as, c, oauth.None(), { scope: 'openid profile' }, insecure));

    const browser = new BrowserSession(t.url);
    let page = await browser.get(`/device?user_code=${started.user_code}`);
    page = await browser.post('/device', { ...hiddenInputs(page.text), user_code: started.user_code });
    page = await browser.get(page.location!);
    expect(page.location).toMatch(/^\/oauth\/sign-in\?return_to=/);
    page = await browser.get(page.location!);
    const codePage = await browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: user.email, password: user.password });
    expect(codePage.status).toBe(200);
    expect(codePage.text).toContain('name="code"');
    // The password alone: the device consent page still sends to the sign-in.
    const consentAsked = await browser.get(`/device/consent?user_code=${started.user_code}`);
    expect(consentAsked.status).toBe(303);
    expect(consentAsked.location).toMatch(/^\/oauth\/sign-in/);

    const signedIn = await browser.post('/oauth/sign-in', { ...hiddenInputs(codePage.text), code: totpCode(secret, clock.now()) });
    expect(signedIn.status).toBe(303);
    const consent = await browser.get(signedIn.location!);
    expect(consent.text).toContain('name="decision"');
    expect((await browser.post('/device/consent', { ...hiddenInputs(consent.text), decision: 'approve' })).status).toBe(200);

    clock.advance(10_000);
    const tokens = await oauth.processDeviceCodeResponse(as, c, await oauth.deviceCodeGrantRequest(as, c, oauth.None(), started.device_code, insecure));
    expect(oauth.getValidatedIdTokenClaims(tokens)!.amr).toEqual(['pwd', 'otp', 'mfa']);
  });
});

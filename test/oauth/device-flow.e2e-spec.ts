import fc from 'fast-check';
import * as oauth from 'oauth4webapi';
import { Clock } from '../../src/common/clock';
import { ConsentsService } from '../../src/oauth/authorize/consents.service';
import { http } from '../helpers/http';
import { BrowserResponse, BrowserSession, createSignInUser, hiddenInputs, OAuthTestUser, registerClient } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * The Device Authorization Grant (RFC 8628) driven by an off-the-shelf client (oauth4webapi, unchanged)
 * for the device, and by a cookie-keeping HTTP browser for the user: `/device` → sign-in → consent →
 * the page that sends the user back. Poll times are set on the app's Clock, never waited for.
 */
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const MAX_GUESSES = 5;
const insecure = { [oauth.allowInsecureRequests]: true } as const;

let lastIp = 0;
function newIp(): string {
  lastIp += 1;
  return `10.77.${(lastIp >> 8) & 255}.${lastIp & 255}`;
}

/** The user's part in a browser: the code entered, signed in when asked, then the decision. Resolves with the last page. */
async function decideInBrowser(browser: BrowserSession, userCode: string, user: OAuthTestUser, decision: 'approve' | 'deny', ip = newIp()): Promise<BrowserResponse> {
  const headers = { 'x-forwarded-for': ip };
  let res = await browser.get(`/device?user_code=${encodeURIComponent(userCode)}`, headers);
  expect(res.status).toBe(200);
  res = await browser.post('/device', { ...hiddenInputs(res.text), user_code: userCode }, headers);
  expect(res.status).toBe(303);
  res = await browser.get(res.location!, headers);
  if (res.status === 303) {
    expect(res.location).toMatch(/^\/oauth\/sign-in\?return_to=/);
    res = await browser.get(res.location!, headers);
    expect(res.text).toContain('name="password"');
    res = await browser.post('/oauth/sign-in', { ...hiddenInputs(res.text), email: user.email, password: user.password }, headers);
    expect(res.status).toBe(303);
    res = await browser.get(res.location!, headers);
  }
  expect(res.status).toBe(200);
  expect(res.text).toContain('name="decision"');
  return browser.post('/device/consent', { ...hiddenInputs(res.text), decision }, headers);
}

describe('Device Authorization Grant (RFC 8628)', () => {
  let t: TestApp;
  let as: oauth.AuthorizationServer;
  let user: OAuthTestUser;
  let clock: jest.SpyInstance;
  let now: number;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'true', SIGN_IN_MAX_FAILURES: String(MAX_GUESSES), DEVICE_CODE_TTL: '600' });
    user = await createSignInUser(t.app);
    const issuer = new URL(t.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    clock = jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => now);
  });
  beforeEach(() => {
    now = Date.now();
  });
  afterAll(async () => {
    clock.mockRestore();
    await t.close();
  });

  async function deviceClient(options: { type?: 'confidential' | 'public'; scopes?: string[]; deviceFlow?: boolean } = {}) {
    const registered = await registerClient(t.app, { type: options.type ?? 'public', scopes: options.scopes ?? ['openid', 'profile', 'read:startups'], deviceFlow: options.deviceFlow ?? true });
    const client: oauth.Client = { client_id: registered.clientId };
    const auth = registered.clientSecret ? oauth.ClientSecretBasic(registered.clientSecret) : oauth.None();
    return { registered, client, auth };
  }

  async function start(c: Awaited<ReturnType<typeof deviceClient>>, scope = 'openid profile read:startups') {
    const res = await oauth.deviceAuthorizationRequest(as, c.client, c.auth, { scope }, insecure);
    return oauth.processDeviceAuthorizationResponse(as, c.client, res);
  }

  /** One poll: the tokens, or the RFC 8628 §3.5 error code. */
  async function poll(c: Awaited<ReturnType<typeof deviceClient>>, deviceCode: string): Promise<oauth.TokenEndpointResponse | string> {
    const res = await oauth.deviceCodeGrantRequest(as, c.client, c.auth, deviceCode, insecure);
    try {
      return await oauth.processDeviceCodeResponse(as, c.client, res);
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError) return error.error;
      throw error;
    }
  }

  it('publishes the device authorization endpoint and the grant type (RFC 8628 §4)', () => {
    expect(as.device_authorization_endpoint).toBe(`${t.url}/oauth/device_authorization`);
    expect(as.grant_types_supported).toContain(DEVICE_GRANT);
  });

  it('answers the device authorization request with both codes, the pages and the interval, never cached', async () => {
    const c = await deviceClient();
    const res = await http(t.url, '/oauth/device_authorization', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: c.registered.clientId, scope: 'profile' }).toString(),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      device_code: expect.stringMatching(/^sp_dc_[A-Za-z0-9_-]{43}$/),
      user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verification_uri: `${t.url}/device`,
      verification_uri_complete: `${t.url}/device?user_code=${res.body.user_code}`,
      expires_in: 600,
      interval: 5,
    });
  });

  it('runs the whole grant: pending, slow_down that lengthens the interval, approval in the browser, tokens once', async () => {
    const c = await deviceClient();
    const started = await start(c);
    expect(started.interval).toBe(5);

    expect(await poll(c, started.device_code)).toBe('authorization_pending');
    now += 2_000;
    expect(await poll(c, started.device_code)).toBe('slow_down');
    // The interval is now 10 s from that poll: 5 s later is still too fast, and lengthens it to 15 s.
    now += 5_000;
    expect(await poll(c, started.device_code)).toBe('slow_down');
    now += 14_000;
    expect(await poll(c, started.device_code)).toBe('slow_down');
    now += 20_000;
    expect(await poll(c, started.device_code)).toBe('authorization_pending');

    const browser = new BrowserSession(t.url);
    const done = await decideInBrowser(browser, started.user_code, user, 'approve');
    expect(done.status).toBe(200);
    expect(done.text).toContain('Go back to your device');

    now += 25_000;
    const tokens = await poll(c, started.device_code);
    if (typeof tokens === 'string') throw new Error(tokens);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.refresh_token).toMatch(/^sp_rt_/);
    expect(tokens.scope).toBe('openid profile read:startups');
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims.sub).toBe(String(user.id));
    expect(typeof claims.auth_time).toBe('number');

    const me = await http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(user.email);
    // Remembered like a consent of the code flow (for the client's redirect URIs): listed among the user's connected applications.
    expect(await t.app.get(ConsentsService).isRemembered(user.id, c.registered.id, ['openid', 'profile', 'read:startups'], 'http://127.0.0.1:9/callback')).toBe(true);

    // Redeemed once: the next poll, however late, is refused.
    now += 60_000;
    expect(await poll(c, started.device_code)).toBe('invalid_grant');
  });

  it('gives the tokens to exactly one of 12 concurrent polls of an approved code', async () => {
    const c = await deviceClient();
    const started = await start(c);
    expect((await decideInBrowser(new BrowserSession(t.url), started.user_code, user, 'approve')).status).toBe(200);
    const polls = await Promise.all(Array.from({ length: 12 }, () => poll(c, started.device_code)));
    expect(polls.filter((p) => typeof p !== 'string')).toHaveLength(1);
    expect(polls.filter((p) => p === 'invalid_grant')).toHaveLength(11);
  });

  it('answers access_denied once the user denies, and keeps answering it', async () => {
    const c = await deviceClient({ type: 'confidential' });
    const started = await start(c);
    const done = await decideInBrowser(new BrowserSession(t.url), started.user_code, user, 'deny');
    expect(done.status).toBe(200);
    expect(done.text).toContain('the device was given no access');
    expect(await poll(c, started.device_code)).toBe('access_denied');
    now += 10_000;
    expect(await poll(c, started.device_code)).toBe('access_denied');
  });

  it('answers expired_token after DEVICE_CODE_TTL, and the code no longer opens the consent page', async () => {
    const c = await deviceClient();
    const started = await start(c);
    now += 600_000;
    expect(await poll(c, started.device_code)).toBe('expired_token');
    const browser = new BrowserSession(t.url);
    const form = await browser.get('/device');
    const res = await browser.post('/device', { ...hiddenInputs(form.text), user_code: started.user_code }, { 'x-forwarded-for': newIp() });
    expect(res.status).toBe(400);
    expect(res.text).toContain('This code is not valid');
    expect(res.text).toContain('name="user_code"');
  });

  it('accepts the user code in any case, with or without the hyphen, with spaces around', async () => {
    const browser = new BrowserSession(t.url);
    const c = await deviceClient();
    for (const shape of [(code: string) => code.toLowerCase(), (code: string) => code.replace('-', ''), (code: string) => `  ${code.replace('-', '').toLowerCase()} `]) {
      const started = await start(c);
      const form = await browser.get('/device');
      const res = await browser.post('/device', { ...hiddenInputs(form.text), user_code: shape(started.user_code) }, { 'x-forwarded-for': newIp() });
      expect(res.status).toBe(303);
      expect(res.location).toBe(`/device/consent?user_code=${started.user_code}`);
    }
  });

  it('pre-fills the code from verification_uri_complete and decides nothing on a GET', async () => {
    const c = await deviceClient();
    const started = await start(c);
    const res = await new BrowserSession(t.url).get(`/device?user_code=${started.user_code}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`value="${started.user_code}"`);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(await poll(c, started.device_code)).toBe('authorization_pending');
  });

  it('refuses a client not registered for the grant with unauthorized_client, at both endpoints', async () => {
    const c = await deviceClient({ deviceFlow: false });
    const res = await oauth.deviceAuthorizationRequest(as, c.client, c.auth, { scope: 'profile' }, insecure);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('unauthorized_client');
    const token = await oauth.deviceCodeGrantRequest(as, c.client, c.auth, 'sp_dc_whatever', insecure);
    expect(((await token.json()) as { error: string }).error).toBe('unauthorized_client');
  });

  it('refuses another client\'s device code with invalid_grant and changes nothing', async () => {
    const owner = await deviceClient();
    const other = await deviceClient();
    const started = await start(owner);
    expect(await poll(other, started.device_code)).toBe('invalid_grant');
    // The owner's first poll is not counted as too fast by the other's attempt.
    expect(await poll(owner, started.device_code)).toBe('authorization_pending');
  });

  it('refuses scopes outside the registration with invalid_scope, and a bad client with invalid_client', async () => {
    const c = await deviceClient({ scopes: ['profile'] });
    for (const scope of ['read:startups', 'nonsense', 'profile email']) {
      const res = await oauth.deviceAuthorizationRequest(as, c.client, c.auth, { scope }, insecure);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_scope');
    }
    const unknown = await oauth.deviceAuthorizationRequest(as, { client_id: 'sp_client_nobody' }, oauth.None(), { scope: 'profile' }, insecure);
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('refuses a cross-site post of the code form and one without its CSRF token', async () => {
    const c = await deviceClient();
    const started = await start(c);
    const browser = new BrowserSession(t.url);
    const form = await browser.get('/device');
    const crossSite = await browser.post('/device', { ...hiddenInputs(form.text), user_code: started.user_code }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const noToken = await browser.post('/device', { user_code: started.user_code });
    expect(noToken.status).toBe(403);
  });

  it('throttles user-code guessing per address: past SIGN_IN_MAX_FAILURES wrong codes, 429 with Retry-After, even for the right code', async () => {
    const c = await deviceClient();
    const started = await start(c);
    const ip = newIp();
    const browser = new BrowserSession(t.url);
    const form = hiddenInputs((await browser.get('/device')).text);
    // Fired at once: each takes its slot before its code is looked up.
    const guesses = await Promise.all(Array.from({ length: 20 }, (_, i) => browser.post('/device', { ...form, user_code: `BBBB-BB${'CDFGHJKLMNPQRSTVWXZ'[i % 19]}B` }, { 'x-forwarded-for': ip })));
    const counts: Record<number, number> = {};
    for (const g of guesses) counts[g.status] = (counts[g.status] ?? 0) + 1;
    expect(counts).toEqual({ 400: MAX_GUESSES, 429: 20 - MAX_GUESSES });
    const right = await browser.post('/device', { ...form, user_code: started.user_code }, { 'x-forwarded-for': ip });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(right.text).toContain('Too many wrong codes');
    // Another address is not affected, and a right code costs nothing.
    const elsewhere = newIp();
    for (let i = 0; i < MAX_GUESSES + 2; i++) {
      const ok = await browser.post('/device', { ...form, user_code: started.user_code }, { 'x-forwarded-for': elsewhere });
      expect(ok.status).toBe(303);
    }
  });

  it('answers hostile input with a clear OAuth error or page, never a 5xx, and changes nothing', async () => {
    const c = await deviceClient({ type: 'confidential' });
    const started = await start(c);
    const secret = c.registered.clientSecret!;
    const basic = `Basic ${Buffer.from(`${c.registered.clientId}:${secret}`).toString('base64')}`;
    const browser = new BrowserSession(t.url);
    const form = hiddenInputs((await browser.get('/device')).text);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.constantFrom('', ' ', '\u0000', 'BCDF-GHJK\u0000', '%00', 'a'.repeat(5000), started.device_code + 'x')), async (value) => {
        const token = await http(t.url, '/oauth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
          body: new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: value }).toString(),
        });
        expect(token.status).toBe(400);
        expect(['invalid_request', 'invalid_grant']).toContain(token.body.error);

        const scoped = await http(t.url, '/oauth/device_authorization', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
          body: new URLSearchParams({ scope: value }).toString(),
        });
        expect([200, 400]).toContain(scoped.status);
        if (scoped.status === 400) expect(['invalid_scope', 'invalid_request']).toContain(scoped.body.error);

        const page = await browser.post('/device', { ...form, user_code: value }, { 'x-forwarded-for': newIp() });
        expect(page.status).toBe(400);
        expect(page.text).toContain('This code is not valid');
        const consent = await browser.get(`/device/consent?user_code=${encodeURIComponent(value)}`, { 'x-forwarded-for': newIp() });
        expect(consent.status).toBe(400);
      }),
      { numRuns: 40 },
    );
    // Nothing changed: the real code is still pending, polled for the first time.
    now += 10_000;
    expect(await poll(c, started.device_code)).toBe('authorization_pending');
  });

  it('refuses repeated parameters and a JSON body at the device authorization endpoint', async () => {
    const c = await deviceClient();
    const repeated = await http(t.url, '/oauth/device_authorization', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `client_id=${c.registered.clientId}&scope=profile&scope=openid`,
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.error).toBe('invalid_request');
    const json = await http(t.url, '/oauth/device_authorization', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: c.registered.clientId }),
    });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('invalid_request');
  });

  it('shows an unverified application as such on the device consent page, without a redirect host', async () => {
    const c = await deviceClient();
    await t.app.get((await import('../../src/clients/clients.service')).ClientsService).setVerified(c.registered.clientId, false);
    const started = await start(c);
    const browser = new BrowserSession(t.url);
    const signIn = await browser.get('/oauth/sign-in');
    await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password }, { 'x-forwarded-for': newIp() });
    const consent = await browser.get(`/device/consent?user_code=${started.user_code}`, { 'x-forwarded-for': newIp() });
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('not verified');
    expect(consent.text).toContain('the device that showed you this code gets access');
    expect(consent.text).toContain(started.user_code);
    expect(consent.headers.get('content-security-policy')).toContain("form-action 'self'");
  });
});

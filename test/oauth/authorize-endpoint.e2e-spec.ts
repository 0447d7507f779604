import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { s256Challenge } from '../../src/oauth/pkce';
import {
  authorizePath,
  BrowserSession,
  createSignInUser,
  hiddenInputs,
  OAuthTestClient,
  OAuthTestUser,
  registerClient,
  runAuthorization,
} from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

const VERIFIER = 'v'.repeat(43);
const CHALLENGE = s256Challenge(VERIFIER);
const STATE = 'xyz ü/?&=+%';

function expectHtmlPage(res: { status: number; headers: Headers; text: string }, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get('location')).toBeNull();
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  const csp = res.headers.get('content-security-policy')!;
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain('unsafe-inline');
  // No inline script; the sign-in page loads the passkey scripts of this server only (docs/second-factor.md).
  expect(/script-src ([^;]*)/.exec(csp)?.[1] ?? "'self'").toBe("'self'");
}

describe('GET /oauth/authorize (docs/integrate-with-oauth.md)', () => {
  let t: TestApp;
  let user: OAuthTestUser;
  let confidential: OAuthTestClient;
  let publicClient: OAuthTestClient;

  beforeAll(async () => {
    t = await startTestApp();
    user = await createSignInUser(t.app);
    confidential = await registerClient(t.app, { name: 'Acme <Analytics>', redirectUris: ['http://127.0.0.1:9/cb?tenant=a%20b', 'https://app.example/cb'] });
    publicClient = await registerClient(t.app, { type: 'public', scopes: ['profile'], redirectUris: ['http://localhost:9/cb'] });
  });
  afterAll(() => t.close());

  const valid = () => ({
    response_type: 'code',
    client_id: confidential.clientId,
    redirect_uri: confidential.redirectUri,
    scope: 'profile read:startups',
    state: STATE,
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  });

  describe('step 1: no redirect for an untrustworthy client or redirect URI (RFC 6749 §4.1.2.1)', () => {
    it.each([
      ['client_id is missing', { client_id: undefined }, 'The request names no application (client_id).'],
      ['client_id is unknown', { client_id: 'sp_client_nobody' }, 'The application is not known.'],
      ['redirect_uri is missing', { redirect_uri: undefined }, 'The request has no return address (redirect_uri).'],
      ['redirect_uri differs by a trailing slash', { redirect_uri: 'https://app.example/cb/' }, 'is not registered'],
      ['redirect_uri differs in case', { redirect_uri: 'https://APP.example/cb' }, 'is not registered'],
      ['redirect_uri has an extra query', { redirect_uri: 'https://app.example/cb?x=1' }, 'is not registered'],
      ['redirect_uri belongs to another client', { redirect_uri: 'http://localhost:9/cb' }, 'is not registered'],
    ])('answers an HTML 400 page when %s', async (_case, change, message) => {
      const res = await new BrowserSession(t.url).get(authorizePath({ ...valid(), ...change }));
      expectHtmlPage(res, 400);
      expect(res.text).toContain('<html lang="en">');
      expect(res.text).toContain(message);
    });

    it.each(['client_id', 'redirect_uri'])('answers an HTML 400 page when %s is repeated', async (name) => {
      const value = name === 'client_id' ? confidential.clientId : confidential.redirectUri;
      const res = await new BrowserSession(t.url).get(`${authorizePath(valid())}&${name}=${encodeURIComponent(value)}`);
      expectHtmlPage(res, 400);
      expect(res.text).toContain('was sent more than once');
    });

    it('speaks Turkish by default', async () => {
      const res = await new BrowserSession(t.url, 'tr').get(authorizePath({ ...valid(), client_id: 'nobody' }));
      expect(res.text).toContain('<html lang="tr">');
      expect(res.text).toContain('Uygulama tanınmıyor.');
      expect(res.headers.get('content-language')).toBe('tr');
    });
  });

  describe('step 2: every other problem goes back to the client', () => {
    async function expectRedirectError(query: string, error: string, description: string | RegExp, state: string | null = STATE) {
      const res = await new BrowserSession(t.url).get(query);
      expect(res.status).toBe(302);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const location = new URL(res.location!);
      expect(`${location.origin}${location.pathname}`).toBe('http://127.0.0.1:9/cb');
      // The registered query is kept, byte for byte.
      expect(res.location!.startsWith('http://127.0.0.1:9/cb?tenant=a%20b&error=')).toBe(true);
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('error_description')).toMatch(description);
      expect(location.searchParams.get('state')).toBe(state);
      expect(location.searchParams.get('iss')).toBe(t.url);
      expect(location.searchParams.has('code')).toBe(false);
    }

    it.each([
      ['response_type is missing', { response_type: undefined }, 'invalid_request', /response_type/],
      ['response_type is token', { response_type: 'token' }, 'unsupported_response_type', /response_type=code/],
      ['code_challenge_method is plain', { code_challenge_method: 'plain' }, 'invalid_request', /S256/],
      ['code_challenge comes without a method', { code_challenge_method: undefined }, 'invalid_request', /S256/],
      ['code_challenge_method comes without a challenge', { code_challenge: undefined }, 'invalid_request', /without code_challenge/],
      ['code_challenge is not 43 base64url characters', { code_challenge: 'short' }, 'invalid_request', /43 base64url/],
      ['a scope is unknown', { scope: 'profile admin' }, 'invalid_scope', /admin is unknown/],
      ['prompt has an unknown value', { prompt: 'select_account' }, 'invalid_request', /prompt value/],
      ['prompt=none comes with another value', { prompt: 'none login' }, 'invalid_request', /prompt=none/],
    ])('%s', async (_case, change, error, description) => {
      await expectRedirectError(authorizePath({ ...valid(), ...change }), error, description);
    });

    it.each(['scope', 'response_type', 'code_challenge', 'prompt'])('refuses a repeated %s as invalid_request', async (name) => {
      await expectRedirectError(`${authorizePath({ ...valid(), prompt: 'login' })}&${name}=x`, 'invalid_request', new RegExp(`${name} was sent more than once`));
    });

    it('does not echo a repeated state', async () => {
      await expectRedirectError(`${authorizePath(valid())}&state=other`, 'invalid_request', /state was sent more than once/, null);
    });

    it('leaves state out when none was sent', async () => {
      await expectRedirectError(authorizePath({ ...valid(), state: undefined, response_type: 'token' }), 'unsupported_response_type', /code/, null);
    });

    it('requires PKCE from a public client', async () => {
      const res = await new BrowserSession(t.url).get(
        authorizePath({ response_type: 'code', client_id: publicClient.clientId, redirect_uri: publicClient.redirectUri, state: 's1' }),
      );
      const location = new URL(res.location!);
      expect(Object.fromEntries(location.searchParams)).toEqual({
        error: 'invalid_request',
        error_description: 'Public clients must send a PKCE code_challenge (S256).',
        state: 's1',
        iss: t.url,
      });
    });

    it('refuses a known scope the client may not request as invalid_scope', async () => {
      const res = await new BrowserSession(t.url).get(
        authorizePath({ response_type: 'code', client_id: publicClient.clientId, redirect_uri: publicClient.redirectUri, scope: 'read:startups', code_challenge: CHALLENGE, code_challenge_method: 'S256' }),
      );
      expect(new URL(res.location!).searchParams.get('error')).toBe('invalid_scope');
    });
  });

  describe('steps 3–5: sign-in, consent, code', () => {
    it('shows a sign-in page with email, password and the hidden inputs, and sets the session cookie', async () => {
      const res = await new BrowserSession(t.url).get(authorizePath(valid()));
      expectHtmlPage(res, 200);
      expect(res.text).toContain('<html lang="en">');
      expect(res.text).toMatch(/<input id="email" name="email" type="email"/);
      expect(res.text).toMatch(/<input id="password" name="password" type="password"/);
      expect(res.text).toContain('<label for="email">Email address</label>');
      expect(Object.keys(hiddenInputs(res.text)).sort()).toEqual(['csrf_token', 'transaction']);
      // The client's name is escaped, and isolated so that it cannot reorder the sentence around it.
      expect(res.text).toContain('<bdi>Acme &lt;Analytics&gt;</bdi> wants to access your account.');
      // Chromium applies form-action to the redirect after the post: the client's origin is allowed.
      expect(res.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:9;");
      const cookie = res.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^sp_session=v1\.[A-Za-z0-9_-]+;/);
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
      expect(cookie).toContain('Path=/;');
      expect(cookie).not.toContain('Secure');
    });

    it('signs in, shows the consent page in plain words and redirects with code, state and iss', async () => {
      const browser = new BrowserSession(t.url, 'tr');
      const signIn = await browser.get(authorizePath(valid()));
      expect(signIn.text).toContain('Oturum açın');
      const consent = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email.toUpperCase(), password: user.password });
      expectHtmlPage(consent, 200);
      expect(consent.text).toContain('<p id="intro"><bdi>Acme &lt;Analytics&gt;</bdi> hesabınızla şunları yapmak istiyor:</p>');
      expect(consent.text).toContain('Adınızı ve e-posta adresinizi görme');
      expect(consent.text).toContain('Girişim verilerini okuma');
      expect(consent.text).toContain('<button type="submit" name="decision" value="approve"');
      expect(consent.text).toContain('<button type="submit" name="decision" value="deny"');
      expect(consent.text).toContain(user.email);

      const approved = await browser.post('/oauth/consent', { ...hiddenInputs(consent.text), decision: 'approve' });
      expect(approved.status).toBe(303);
      const location = new URL(approved.location!);
      expect(location.searchParams.get('code')).toMatch(/^sp_ac_[A-Za-z0-9_-]{43}$/);
      expect(location.searchParams.get('state')).toBe(STATE);
      expect(location.searchParams.get('iss')).toBe(t.url);
      expect(location.searchParams.get('tenant')).toBe('a b');
      expect(approved.location!.startsWith('http://127.0.0.1:9/cb?tenant=a%20b&code=sp_ac_')).toBe(true);

      // The code is stored only as its hash, bound to everything the token request must match.
      const [row] = await t.app
        .get(DataSource)
        .query('SELECT * FROM oauth_authorization_codes ORDER BY id DESC LIMIT 1');
      expect(JSON.stringify(row)).not.toContain(location.searchParams.get('code'));
      expect(row).toMatchObject({ redirect_uri: confidential.redirectUri, scope: 'profile read:startups', code_challenge: CHALLENGE, code_challenge_method: 'S256' });
      expect(Number(row.expires_at) - Number(row.created_at)).toBe(60_000);
    });

    it('rotates the session id at sign-in', async () => {
      const browser = new BrowserSession(t.url);
      const signIn = await browser.get(authorizePath(valid()));
      const before = browser.cookies.get('sp_session');
      await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password });
      expect(browser.cookies.get('sp_session')).not.toBe(before);
    });

    it('remembers a consent per client and scope set, and asks again with prompt=consent', async () => {
      const other = await createSignInUser(t.app);
      const browser = new BrowserSession(t.url);
      await runAuthorization(browser, authorizePath(valid()), other);

      // Signed in and consented: straight back with a code, for the same set or a narrower one.
      for (const scope of ['profile read:startups', 'read:startups']) {
        const again = await browser.get(authorizePath({ ...valid(), scope }));
        expect(again.status).toBe(302);
        expect(new URL(again.location!).searchParams.get('code')).toMatch(/^sp_ac_/);
      }
      const [stored] = await t.app.get(DataSource).query(`SELECT scope FROM oauth_consents WHERE user_id = ${other.id}`);
      expect(stored.scope).toBe('profile read:startups');

      const forced = await browser.get(authorizePath({ ...valid(), prompt: 'consent' }));
      expect(forced.status).toBe(200);
      expect(forced.text).toContain('name="decision"');

      // prompt=login shows the sign-in page although the session is signed in.
      const login = await browser.get(authorizePath({ ...valid(), prompt: 'login' }));
      expect(login.status).toBe(200);
      expect(login.text).toContain('name="password"');

      // prompt=none answers with a code when nothing needs the user.
      const none = await browser.get(authorizePath({ ...valid(), prompt: 'none' }));
      expect(new URL(none.location!).searchParams.get('code')).toMatch(/^sp_ac_/);
    });

    it('answers prompt=none login_required without a session and consent_required without a consent', async () => {
      const anonymous = await new BrowserSession(t.url).get(authorizePath({ ...valid(), prompt: 'none' }));
      expect(Object.fromEntries(new URL(anonymous.location!).searchParams)).toMatchObject({ error: 'login_required', state: STATE, iss: t.url });

      const browser = new BrowserSession(t.url);
      const signIn = await browser.get(authorizePath(valid()));
      // Signed in (this user consented to the first client in an earlier test, so that answers with a code).
      await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password });
      const fresh = await registerClient(t.app, { redirectUris: ['https://fresh.example/cb'] });
      const none = await browser.get(authorizePath({ ...valid(), client_id: fresh.clientId, redirect_uri: fresh.redirectUri, prompt: 'none' }));
      expect(Object.fromEntries(new URL(none.location!).searchParams)).toMatchObject({ error: 'consent_required', state: STATE, iss: t.url });
    });

    it('denies with access_denied, state and iss', async () => {
      const browser = new BrowserSession(t.url);
      const callback = await runAuthorization(browser, authorizePath({ ...valid(), prompt: 'consent' }), user, 'deny');
      expect(Object.fromEntries(callback.searchParams)).toEqual({
        tenant: 'a b',
        error: 'access_denied',
        error_description: 'The user denied the request.',
        state: STATE,
        iss: t.url,
      });
    });

    it('answers every form post that sends the browser to the client with 303, never 302 or 307 (RFC 9700 §4.12)', async () => {
      const fresh = await createSignInUser(t.app);
      const browser = new BrowserSession(t.url);
      const signIn = await browser.get(authorizePath(valid()));
      const consent = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: fresh.email, password: fresh.password });
      expect(consent.status).toBe(200);
      const approved = await browser.post('/oauth/consent', { ...hiddenInputs(consent.text), decision: 'approve' });
      const asked = await browser.get(authorizePath({ ...valid(), prompt: 'consent' }));
      const denied = await browser.post('/oauth/consent', { ...hiddenInputs(asked.text), decision: 'deny' });
      // Consent remembered: the post that carries the password goes straight to the client.
      const login = await browser.get(authorizePath({ ...valid(), prompt: 'login' }));
      const signedIn = await browser.post('/oauth/sign-in', { ...hiddenInputs(login.text), email: fresh.email, password: fresh.password });
      const answers = [approved, denied, signedIn].map((res) => [res.status, [...new URL(res.location!).searchParams.keys()][1]]);
      expect(answers).toEqual([
        [303, 'code'],
        [303, 'error'],
        [303, 'code'],
      ]);
      // A redirect answering a GET stays a 302.
      expect((await browser.get(authorizePath(valid()))).status).toBe(302);
    });

    it('defaults a missing scope to the client\'s registered scopes', async () => {
      const fresh = await createSignInUser(t.app);
      const browser = new BrowserSession(t.url);
      const signIn = await browser.get(authorizePath({ ...valid(), scope: undefined }));
      const consent = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: fresh.email, password: fresh.password });
      expect(consent.status).toBe(200);
      expect(consent.text).toContain('See your name and email address');
      expect(consent.text).toContain('Read startup data');
      const approved = await browser.post('/oauth/consent', { ...hiddenInputs(consent.text), decision: 'approve' });
      expect(approved.status).toBe(303);
      const [row] = await t.app.get(DataSource).query(`SELECT scope FROM oauth_authorization_codes WHERE user_id = ${fresh.id}`);
      expect(row.scope).toBe('profile read:startups');
    });
  });

  describe('the sign-in form', () => {
    it('shows the page again for a wrong password, keeping the address but never the password', async () => {
      const browser = new BrowserSession(t.url);
      const signIn = await browser.get(authorizePath(valid()));
      const res = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: 'wrong password' });
      expectHtmlPage(res, 400);
      expect(res.text).toContain('role="alert">The email address or password is incorrect.');
      expect(res.text).toContain(`value="${user.email}"`);
      expect(res.text).not.toContain('wrong password');
      expect(res.text).toContain('aria-invalid="true"');
      // The same answer for an address without an account.
      const unknown = await browser.post('/oauth/sign-in', { ...hiddenInputs(res.text), email: 'nobody@example.com', password: 'wrong password' });
      expect(unknown.status).toBe(400);
      expect(unknown.text).toContain('The email address or password is incorrect.');
    });

    it('refuses a tampered CSRF token with 403 and does not sign in', async () => {
      const browser = new BrowserSession(t.url);
      const signIn = await browser.get(authorizePath(valid()));
      const inputs = hiddenInputs(signIn.text);
      const res = await browser.post('/oauth/sign-in', { ...inputs, csrf_token: `${inputs.csrf_token.slice(0, -2)}xx`, email: user.email, password: user.password });
      expectHtmlPage(res, 403);
      expect(res.text).toContain('The form could not be verified');
      expect(res.headers.get('set-cookie')).toBeNull();
    });

    it('refuses a post without the session cookie', async () => {
      const signIn = await new BrowserSession(t.url).get(authorizePath(valid()));
      const res = await new BrowserSession(t.url).post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password });
      expectHtmlPage(res, 403);
    });

    it.each([
      ['a foreign Origin', { origin: 'https://evil.example' }],
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['Origin: null from a cross-site page', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
    ])('refuses a cross-site post (%s) with 403', async (_case, headers) => {
      const browser = new BrowserSession(t.url);
      const signIn = await browser.get(authorizePath(valid()));
      const res = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password }, headers);
      expectHtmlPage(res, 403);
      expect(res.text).toContain('The form was sent from another site and was not accepted.');
    });

    it('accepts a same-origin post whose Origin is null, as browsers send it from a no-referrer page', async () => {
      const browser = new BrowserSession(t.url);
      const signIn = await browser.get(authorizePath(valid()));
      const res = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password }, { origin: 'null' });
      expect([200, 303]).toContain(res.status);
    });

    it('refuses a tampered or foreign pending request with 400', async () => {
      const browser = new BrowserSession(t.url);
      const signIn = await browser.get(authorizePath(valid()));
      const inputs = hiddenInputs(signIn.text);
      const tampered = await browser.post('/oauth/sign-in', { ...inputs, transaction: `${inputs.transaction.slice(0, -4)}AAAA`, email: user.email, password: user.password });
      expectHtmlPage(tampered, 400);
      expect(tampered.text).toContain('This authorization request has expired or is not valid.');

      // A transaction sealed for another browser's session does not open in this one.
      const other = new BrowserSession(t.url);
      const otherInputs = hiddenInputs((await other.get(authorizePath(valid()))).text);
      const foreign = await browser.post('/oauth/sign-in', { ...inputs, transaction: otherInputs.transaction, email: user.email, password: user.password });
      expect(foreign.status).toBe(400);
    });

    it('refuses a consent post whose decision is neither approve nor deny', async () => {
      const browser = new BrowserSession(t.url);
      const signIn = await browser.get(authorizePath({ ...valid(), prompt: 'consent' }));
      const consent = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password });
      const res = await browser.post('/oauth/consent', { ...hiddenInputs(consent.text), decision: 'maybe' });
      expectHtmlPage(res, 400);
    });
  });
});

describe('sign-in throttling (docs/integrate-with-oauth.md and SECURITY.md)', () => {
  let t: TestApp;
  let user: OAuthTestUser;
  let client: OAuthTestClient;

  beforeAll(async () => {
    t = await startTestApp({ SIGN_IN_MAX_FAILURES: '3', SIGN_IN_MAX_FAILURES_PER_IP: '3', SIGN_IN_WINDOW: '600', TRUST_PROXY: 'true' });
    user = await createSignInUser(t.app);
    client = await registerClient(t.app);
  });
  afterAll(() => t.close());

  async function attempt(browser: BrowserSession, email: string, password: string, ip: string) {
    const page = await browser.get(authorizePath({ response_type: 'code', client_id: client.clientId, redirect_uri: client.redirectUri }));
    return browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email, password }, { 'x-forwarded-for': ip });
  }

  it('throttles an account after too many failures, even with the right password, from any address', async () => {
    const browser = new BrowserSession(t.url);
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) expect((await attempt(browser, user.email, 'nope', ip)).status).toBe(400);
    const throttled = await attempt(browser, user.email, user.password, '10.0.0.4');
    expectHtmlPage(throttled, 429);
    expect(throttled.text).toContain('Too many failed attempts. Please try again in a few minutes.');
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(throttled.headers.get('set-cookie')).toBeNull();
  });

  it('answers an address without an account exactly the same way', async () => {
    const browser = new BrowserSession(t.url);
    for (const ip of ['10.0.1.1', '10.0.1.2', '10.0.1.3']) expect((await attempt(browser, 'ghost@example.com', 'nope', ip)).status).toBe(400);
    const throttled = await attempt(browser, 'ghost@example.com', 'nope', '10.0.1.4');
    expect(throttled.status).toBe(429);
    expect(throttled.text).toContain('Too many failed attempts.');
  });

  it('throttles an address that keeps failing on different accounts', async () => {
    const browser = new BrowserSession(t.url);
    for (const n of [1, 2, 3]) expect((await attempt(browser, `victim${n}@example.com`, 'nope', '10.0.2.1')).status).toBe(400);
    const other = await createSignInUser(t.app);
    expect((await attempt(browser, other.email, other.password, '10.0.2.1')).status).toBe(429);
    // The account itself is fine from elsewhere.
    expect((await attempt(browser, other.email, other.password, '10.0.2.2')).status).toBe(200);
  });

  it('keeps the counters where every instance sees them: in Redis when it is configured, else in the database', async () => {
    const rows = await t.app.get(DataSource).query(`SELECT "key", failures FROM sign_in_throttles WHERE "key" = 'account:${user.email}'`);
    if (t.env.REDIS_URL) {
      expect(rows).toEqual([]);
      const redis = new Redis(t.env.REDIS_URL, { lazyConnect: true });
      await redis.connect();
      try {
        expect(await redis.hget(`${t.env.REDIS_KEY_PREFIX}signin:account:${user.email}`, 'count')).toBe('3');
      } finally {
        redis.disconnect();
      }
    } else {
      expect(rows).toEqual([{ key: `account:${user.email}`, failures: 3 }]);
    }
  });
});

describe('the session cookie over https (docs/integrate-with-oauth.md and SECURITY.md)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://auth.example' });
  });
  afterAll(() => t.close());

  it('is Secure when PUBLIC_URL is https', async () => {
    const client = await registerClient(t.app, { redirectUris: ['https://app.example/cb'] });
    const res = await new BrowserSession(t.url).get(authorizePath({ response_type: 'code', client_id: client.clientId, redirect_uri: client.redirectUri }));
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/; Secure/);
  });
});

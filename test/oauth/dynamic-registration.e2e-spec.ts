import { randomBytes } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import * as openid from 'openid-client';
import { DataSource } from 'typeorm';
import { ClientsService } from '../../src/clients/clients.service';
import { TokenPurgeService } from '../../src/purge/token-purge.service';
import { signInAt } from '../helpers/account';
import { TestClock } from '../helpers/clock';
import { http, HttpResponse } from '../helpers/http';
import { basicAuth, BrowserSession, createSignInUser, hiddenInputs, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

const NATIVE_REDIRECT = 'http://127.0.0.1:9/callback';
const WEB_REDIRECT = 'https://agent.example/callback';
const DAY_MS = 86_400_000;

/** A fresh address per registration series, so that no test spends another's hourly budget. */
function newIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}

/**
 * Dynamic client registration (RFC 7591) and management (RFC 7592): docs/integrate-with-oauth.md,
 * "Register a client dynamically"; SECURITY.md, "Registration flooding". The real app, a real database
 * (SQLite here, PostgreSQL and Redis in the e2e:postgres project), and off-the-shelf client libraries.
 */
describe('dynamic client registration (RFC 7591, RFC 7592)', () => {
  let t: TestApp;
  let user: OAuthTestUser;
  const insecure = { [oauth.allowInsecureRequests]: true } as const;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'true' });
    user = await createSignInUser(t.app);
  });
  afterAll(() => t.close());

  function register(body: unknown, ip = newIp(), headers: Record<string, string> = {}): Promise<HttpResponse> {
    return http(t.url, '/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  function manage(method: string, clientId: string, token: string | undefined, body?: unknown): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return http(t.url, `/oauth/register/${encodeURIComponent(clientId)}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  async function clientRows(): Promise<number> {
    const [row] = await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM oauth_clients');
    return Number(row.n);
  }

  async function nativeClient(name = `Agent ${randomBytes(3).toString('hex')}`) {
    const res = await register({ client_name: name, redirect_uris: [NATIVE_REDIRECT], application_type: 'native', token_endpoint_auth_method: 'none', scope: 'profile read:startups' });
    expect(res.status).toBe(201);
    return res.body as { client_id: string; registration_access_token: string; registration_client_uri: string };
  }

  it('lists registration_endpoint in both discovery documents', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const res = await http(t.url, path);
      expect(res.body.registration_endpoint).toBe(`${t.url}/oauth/register`);
    }
  });

  it('lets a browser application register and manage itself from another origin (CORS)', async () => {
    for (const [path, method] of [
      ['/oauth/register', 'POST'],
      ['/oauth/register/sp_client_x', 'PUT'],
      ['/oauth/register/sp_client_x', 'DELETE'],
    ]) {
      const res = await fetch(`${t.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://inspector.example', 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
      });
      expect([path, method, res.status]).toEqual([path, method, 204]);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain(method);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('registers a public native client with oauth4webapi, then runs the code flow with PKCE as that client', async () => {
    const issuer = new URL(t.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { client_name: 'Native Agent', redirect_uris: [NATIVE_REDIRECT], application_type: 'native', token_endpoint_auth_method: 'none', scope: 'profile read:startups' },
        { ...insecure, headers: { 'x-forwarded-for': newIp() } },
      ),
    );
    expect(registered).toMatchObject({
      client_id: expect.stringMatching(/^sp_client_/),
      client_id_issued_at: expect.any(Number),
      registration_access_token: expect.stringMatching(/^sp_rat_[A-Za-z0-9_-]{43}$/),
      registration_client_uri: `${t.url}/oauth/register/${registered.client_id}`,
      client_name: 'Native Agent',
      redirect_uris: [NATIVE_REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      scope: 'profile read:startups',
    });
    expect(registered.client_secret).toBeUndefined();
    // The token is stored only as its SHA-256.
    const [row] = await t.app.get(DataSource).query(`SELECT registration_access_token_hash AS hash, verified FROM oauth_clients WHERE client_id = '${registered.client_id}'`);
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(registered.registration_access_token as string);

    const client: oauth.Client = { client_id: registered.client_id };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      // RFC 8252 §7.3: any port on the loopback address.
      redirect_uri: 'http://127.0.0.1:51234/callback',
      scope: 'profile',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();
    const browser = new BrowserSession(t.url);
    const signIn = await browser.get(url.toString());
    const consent = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password });
    // Unverified, like a portal application (docs/integrate-with-oauth.md).
    expect(consent.text).toContain('id="unverified"');
    expect(consent.text).toMatch(/not verified/);
    const callback = await runAuthorization(browser, url.toString(), user);
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, 'http://127.0.0.1:51234/callback', verifier, insecure),
    );
    expect(tokens.refresh_token).toMatch(/^sp_rt_/);
    const me = await http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(user.id);
  });

  it('registers a confidential web client with openid-client, then runs the code flow with PKCE and client_secret_basic', async () => {
    const ip = newIp();
    const config = await openid.dynamicClientRegistration(
      new URL(t.url),
      { client_name: 'Web Agent', redirect_uris: [WEB_REDIRECT], application_type: 'web', token_endpoint_auth_method: 'client_secret_basic', scope: 'openid profile' },
      // The method it registers (openid-client would send the secret in the body otherwise).
      openid.ClientSecretBasic(),
      {
        algorithm: 'oauth2',
        execute: [openid.allowInsecureRequests],
        [openid.customFetch]: (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init.headers).entries()), 'x-forwarded-for': ip } }),
      },
    );
    const metadata = config.clientMetadata();
    expect(metadata).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', application_type: 'web', client_secret_expires_at: 0 });
    expect(metadata.client_secret).toMatch(/^sp_cs_/);
    const verifier = openid.randomPKCECodeVerifier();
    const state = openid.randomState();
    const url = openid.buildAuthorizationUrl(config, {
      redirect_uri: WEB_REDIRECT,
      scope: 'openid profile',
      state,
      code_challenge: await openid.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = await runAuthorization(new BrowserSession(t.url), url.toString(), user);
    const tokens = await openid.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()?.sub).toBe(String(user.id));
    const me = await http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
    // It acts only for the users who allow it: no client_credentials (it did not register that grant).
    const cc = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(metadata.client_id, metadata.client_secret as string) },
      body: 'grant_type=client_credentials&scope=read%3Astartups',
    });
    expect([cc.status, cc.body.error]).toEqual([400, 'unauthorized_client']);
  });

  it('RFC 7592: reads, replaces and deletes with the registration access token; another token, none, or a portal client is 401', async () => {
    const mine = await nativeClient();
    const theirs = await nativeClient();
    const cliClient = await registerClient(t.app, { redirectUris: [WEB_REDIRECT] });

    const read = await manage('GET', mine.client_id, mine.registration_access_token);
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('no-store');
    expect(read.body).toMatchObject({ client_id: mine.client_id, registration_access_token: mine.registration_access_token, registration_client_uri: mine.registration_client_uri, token_endpoint_auth_method: 'none' });

    for (const [clientId, token, sent] of [
      [mine.client_id, undefined, false],
      [mine.client_id, 'sp_rat_wrong', true],
      [mine.client_id, theirs.registration_access_token, true],
      [theirs.client_id, mine.registration_access_token, true],
      [cliClient.clientId, mine.registration_access_token, true],
      ['sp_client_nobody', mine.registration_access_token, true],
    ] as const) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await manage(method, clientId, token, method === 'PUT' ? { client_id: clientId, client_name: 'Taken over', redirect_uris: [NATIVE_REDIRECT], application_type: 'native' } : undefined);
        const where = `${method} ${clientId} with ${token ?? 'no token'}`;
        expect([where, res.status, res.body.error]).toEqual([where, 401, 'invalid_token']);
        expect([where, res.headers.get('www-authenticate')]).toEqual([where, sent ? 'Bearer realm="oauth-registration", error="invalid_token"' : 'Bearer realm="oauth-registration"']);
      }
    }
    expect((await manage('GET', theirs.client_id, theirs.registration_access_token)).body.client_name).not.toBe('Taken over');
    // The token is checked before the body is read: a form (or no body) without a valid token is 401 too.
    for (const [body, contentType] of [['client_name=Taken+over', 'application/x-www-form-urlencoded'], [undefined, undefined]] as const) {
      const res = await http(t.url, `/oauth/register/${encodeURIComponent(mine.client_id)}`, {
        method: 'PUT',
        headers: { authorization: 'Bearer sp_rat_wrong', ...(contentType ? { 'content-type': contentType } : {}) },
        body,
      });
      expect([contentType, res.status, res.body.error]).toEqual([contentType, 401, 'invalid_token']);
    }

    // Replace: every field as at registration; what is left out returns to its default.
    const replaced = await manage('PUT', mine.client_id, mine.registration_access_token, {
      ...read.body,
      client_name: 'Renamed Agent',
      redirect_uris: [NATIVE_REDIRECT, 'http://[::1]/callback'],
      client_uri: 'https://agent.example/',
      scope: 'read:startups',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ client_name: 'Renamed Agent', redirect_uris: [NATIVE_REDIRECT, 'http://[::1]/callback'], scope: 'read:startups', client_uri: 'https://agent.example/', token_endpoint_auth_method: 'none' });
    expect((await manage('GET', mine.client_id, mine.registration_access_token)).body).toEqual(replaced.body);
    // Vouched for by the operator, then pointed elsewhere by its registration token: unverified again.
    const clients = t.app.get(ClientsService, { strict: false });
    await clients.setVerified(mine.client_id, true);
    expect((await manage('PUT', mine.client_id, mine.registration_access_token, { ...replaced.body, client_name: 'Renamed Agent' })).status).toBe(200);
    expect((await clients.findByClientId(mine.client_id))!.verified).toBe(true);
    expect((await manage('PUT', mine.client_id, mine.registration_access_token, { ...replaced.body, redirect_uris: ['http://127.0.0.1/elsewhere'] })).status).toBe(200);
    expect((await clients.findByClientId(mine.client_id))!.verified).toBe(false);
    expect((await manage('PUT', mine.client_id, mine.registration_access_token, replaced.body)).status).toBe(200);

    // A bad replacement changes nothing.
    for (const [body, error] of [
      [{ client_id: mine.client_id, client_name: 'X', redirect_uris: ['https://agent.example/cb#frag'] }, 'invalid_redirect_uri'],
      [{ client_id: 'sp_client_other', client_name: 'X', redirect_uris: [NATIVE_REDIRECT], application_type: 'native' }, 'invalid_client_metadata'],
      [{ client_name: 'X', redirect_uris: [NATIVE_REDIRECT], application_type: 'native' }, 'invalid_client_metadata'],
      [{ client_id: mine.client_id, client_name: 'X', redirect_uris: [NATIVE_REDIRECT], application_type: 'native', token_endpoint_auth_method: 'client_secret_post' }, 'invalid_client_metadata'],
      [{ client_id: mine.client_id, client_name: 'X', redirect_uris: [NATIVE_REDIRECT], application_type: 'native', client_secret: 'sp_cs_mine_now' }, 'invalid_client_metadata'],
    ] as const) {
      const res = await manage('PUT', mine.client_id, mine.registration_access_token, body);
      expect([JSON.stringify(body), res.status, res.body.error]).toEqual([JSON.stringify(body), 400, error]);
    }
    expect((await manage('GET', mine.client_id, mine.registration_access_token)).body).toEqual(replaced.body);

    // Delete: its tokens stop working, and so does its registration access token.
    const browser = new BrowserSession(t.url);
    const verifier = oauth.generateRandomCodeVerifier();
    const callback = await runAuthorization(
      browser,
      `${t.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: mine.client_id, redirect_uri: NATIVE_REDIRECT, scope: 'read:startups', code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' })}`,
      user,
    );
    const tokens = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: NATIVE_REDIRECT, client_id: mine.client_id, code_verifier: verifier }).toString(),
    });
    expect(tokens.status).toBe(200);
    expect((await http(t.url, '/api/public/v1/startups?limit=1', { headers: { authorization: `Bearer ${tokens.body.access_token}` } })).status).toBe(200);

    const rows = await clientRows();
    const deleted = await manage('DELETE', mine.client_id, mine.registration_access_token);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(await clientRows()).toBe(rows - 1);
    expect((await manage('GET', mine.client_id, mine.registration_access_token)).status).toBe(401);
    expect((await manage('DELETE', mine.client_id, mine.registration_access_token)).status).toBe(401);
    expect((await http(t.url, '/api/public/v1/startups?limit=1', { headers: { authorization: `Bearer ${tokens.body.access_token}` } })).status).toBe(401);
    const refreshed = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: mine.client_id }).toString(),
    });
    expect(refreshed.status).toBe(401);
    // The other client is untouched.
    expect((await manage('GET', theirs.client_id, theirs.registration_access_token)).status).toBe(200);
  });

  it('remembers a consent for every redirect URI the client had when it was given (contract: a client and a scope set)', async () => {
    const other = 'http://127.0.0.1:9/other';
    const res = await register({ client_name: 'Two Doors', redirect_uris: [NATIVE_REDIRECT, other], application_type: 'native', token_endpoint_auth_method: 'none', scope: 'profile' });
    expect(res.status).toBe(201);
    const path = (redirectUri: string, extra: Record<string, string> = {}) =>
      `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: res.body.client_id, redirect_uri: redirectUri, scope: 'profile', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGHjsRSq7M', code_challenge_method: 'S256', ...extra }).toString()}`;
    const browser = new BrowserSession(t.url);
    expect((await runAuthorization(browser, `${t.url}${path(NATIVE_REDIRECT)}`, user)).searchParams.get('code')).toBeTruthy();
    const silent = await browser.get(path(other, { prompt: 'none' }));
    expect([silent.status, new URL(silent.location!).origin + new URL(silent.location!).pathname, new URL(silent.location!).searchParams.has('code')]).toEqual([302, other, true]);
  });

  it('asks every user again before a code goes to a redirect URI added after they consented (a leaked registration access token)', async () => {
    const mine = await nativeClient();
    const authorize = (redirectUri: string, extra: Record<string, string> = {}) =>
      `/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: mine.client_id,
        redirect_uri: redirectUri,
        scope: 'profile',
        state: 's',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGHjsRSq7M',
        code_challenge_method: 'S256',
        ...extra,
      }).toString()}`;
    // The user allows the agent once; a second authorization is answered at once, with a code.
    const browser = new BrowserSession(t.url);
    expect((await runAuthorization(browser, `${t.url}${authorize(NATIVE_REDIRECT)}`, user)).searchParams.get('code')).toBeTruthy();
    const silent = await browser.get(authorize(NATIVE_REDIRECT, { prompt: 'none' }));
    expect([silent.status, new URL(silent.location!).searchParams.has('code')]).toEqual([302, true]);

    // Whoever holds the registration access token adds an address of theirs.
    const evil = 'https://evil.example/cb';
    const changed = await manage('PUT', mine.client_id, mine.registration_access_token, {
      client_id: mine.client_id,
      client_name: 'Agent',
      redirect_uris: [NATIVE_REDIRECT, evil],
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      scope: 'profile read:startups',
    });
    expect([changed.status, changed.body.error_description]).toEqual([200, undefined]);

    // No code goes there without a consent page: prompt=none is not answered with one (the
    // unverified agent's error is held on a page), and a plain request shows the consent page.
    const tried = await browser.get(authorize(evil, { prompt: 'none' }));
    expect(tried.location ?? '').not.toContain('code=');
    expect(tried.status).not.toBe(302);
    const asked = await browser.get(authorize(evil));
    expect([asked.status, asked.text.includes('name="decision"')]).toEqual([200, true]);
    // The address the user consented through still gets its code at once. And when the user consents
    // again through it (the real application asks with prompt=consent), that consent names it alone:
    // the added address still gets no code without a page of its own.
    const again = await browser.get(authorize(NATIVE_REDIRECT, { prompt: 'none' }));
    expect([again.status, new URL(again.location!).searchParams.has('code')]).toEqual([302, true]);
    expect((await runAuthorization(browser, `${t.url}${authorize(NATIVE_REDIRECT, { prompt: 'consent' })}`, user)).searchParams.get('code')).toBeTruthy();
    const still = await browser.get(authorize(evil, { prompt: 'none' }));
    expect([still.status, still.location ?? '']).toEqual([400, '']);
  });

  it('refuses every invalid registration with the RFC 7591 error and stores nothing', async () => {
    const valid = { client_name: 'Valid Agent', redirect_uris: [WEB_REDIRECT] };
    const cases: Array<[unknown, string]> = [
      [{ ...valid, redirect_uris: undefined }, 'invalid_redirect_uri'],
      [{ ...valid, redirect_uris: [] }, 'invalid_redirect_uri'],
      [{ ...valid, redirect_uris: WEB_REDIRECT }, 'invalid_redirect_uri'],
      [{ ...valid, redirect_uris: ['https://agent.example/cb#x'] }, 'invalid_redirect_uri'],
      [{ ...valid, redirect_uris: ['https://*.agent.example/cb'] }, 'invalid_redirect_uri'],
      [{ ...valid, redirect_uris: ['https://user:pw@agent.example/cb'] }, 'invalid_redirect_uri'],
      [{ ...valid, redirect_uris: ['http://agent.example/cb'] }, 'invalid_redirect_uri'],
      [{ ...valid, redirect_uris: [NATIVE_REDIRECT], application_type: 'web' }, 'invalid_redirect_uri'],
      [{ ...valid, redirect_uris: [WEB_REDIRECT, NATIVE_REDIRECT] }, 'invalid_redirect_uri'],
      [{ ...valid, redirect_uris: ['com.example.app:/callback'], application_type: 'native' }, 'invalid_redirect_uri'],
      [{ ...valid, redirect_uris: Array.from({ length: 11 }, (_, i) => `https://agent.example/${i}`) }, 'invalid_redirect_uri'],
      [{ ...valid, client_name: undefined }, 'invalid_client_metadata'],
      [{ ...valid, client_name: '' }, 'invalid_client_metadata'],
      [{ ...valid, client_name: 'Startup Platform' }, 'invalid_client_metadata'],
      [{ ...valid, client_name: 'Gооgle' }, 'invalid_client_metadata'],
      [{ ...valid, client_name: 'Evil\u202Eppa' }, 'invalid_client_metadata'],
      [{ ...valid, client_name: 42 }, 'invalid_client_metadata'],
      [{ ...valid, scope: 'profile admin' }, 'invalid_client_metadata'],
      [{ ...valid, application_type: 'desktop' }, 'invalid_client_metadata'],
      [{ ...valid, token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
      [{ ...valid, grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      [{ ...valid, grant_types: ['authorization_code', 'implicit'] }, 'invalid_client_metadata'],
      [{ ...valid, grant_types: ['refresh_token'] }, 'invalid_client_metadata'],
      [{ ...valid, response_types: ['token'] }, 'invalid_client_metadata'],
      [{ ...valid, client_uri: 'javascript:alert(1)' }, 'invalid_client_metadata'],
      [{ ...valid, logo_uri: 'http://tracker.example/logo.png' }, 'invalid_client_metadata'],
      [{ ...valid, id_token_signed_response_alg: 'none' }, 'invalid_client_metadata'],
      [[valid], 'invalid_client_metadata'],
      ['"just a string"', 'invalid_client_metadata'],
    ];
    const before = await clientRows();
    for (const [body, error] of cases) {
      const res = await register(body);
      const where = JSON.stringify(body);
      expect([where, res.status, res.body.error]).toEqual([where, 400, error]);
      expect([where, res.body.error_description]).toEqual([where, expect.stringMatching(/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/)]);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
    // A form, or a body that is not JSON at all.
    const form = await register(new URLSearchParams({ client_name: 'x', redirect_uris: WEB_REDIRECT }).toString(), newIp(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect([form.status, form.body.error]).toEqual([400, 'invalid_client_metadata']);
    const broken = await register('{"client_name":', newIp());
    expect([broken.status, broken.body.error]).toEqual([400, 'invalid_request']);
    expect(await clientRows()).toBe(before);
    // Unknown fields are ignored (RFC 7591 §2), the defaults filled in.
    const ok = await register({ ...valid, software_id: 'x', contacts: ['a@b.example'], tos_uri: 'https://x.example/' });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', application_type: 'web', scope: 'email openid profile read:startups', grant_types: ['authorization_code', 'refresh_token'] });
    expect(ok.body.software_id).toBeUndefined();
    expect(await clientRows()).toBe(before + 1);
  });

  it('counts registrations per IP: the 21st within the hour is refused, another IP is not, a /64 neighbour is counted together', async () => {
    const clock = new TestClock(t.app);
    try {
      const body = { client_name: 'Counted Agent', redirect_uris: [WEB_REDIRECT] };
      const ip = newIp();
      for (let i = 1; i <= 20; i++) expect((await register(body, ip)).status).toBe(201);
      const before = await clientRows();
      const refused = await register(body, ip);
      expect([refused.status, refused.body.error]).toEqual([429, 'invalid_request']);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
      expect(await clientRows()).toBe(before);
      expect((await register(body, newIp())).status).toBe(201);

      const net = `2001:db8:${randomBytes(2).toString('hex')}:7`;
      for (let i = 1; i <= 20; i++) expect((await register(body, `${net}::${i}`)).status).toBe(201);
      expect((await register(body, `${net}:ffff:1:2:3`)).status).toBe(429);
      expect((await register(body, `2001:db8:${randomBytes(2).toString('hex')}:8::1`)).status).toBe(201);

      // A new hour, a new budget.
      clock.advance(3_600_001);
      expect((await register(body, ip)).status).toBe(201);
      expect((await register(body, `${net}::1`)).status).toBe(201);
    } finally {
      clock.restore();
    }
  });

  it('never passes the limit with thirty registrations at once from one IP at its boundary', async () => {
    const ip = newIp();
    const body = { client_name: 'Racing Agent', redirect_uris: [WEB_REDIRECT] };
    for (let i = 1; i <= 15; i++) expect((await register(body, ip)).status).toBe(201);
    const before = await clientRows();
    const answers = await Promise.all(Array.from({ length: 30 }, () => register(body, ip)));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    expect(await clientRows()).toBe(before + 5);
  });

  it('purges a registered client no user authorized within 30 days, and keeps one a user authorized', async () => {
    const clock = new TestClock(t.app);
    try {
      const unused = await nativeClient('Never Used');
      const used = await nativeClient('Used Once');
      const cli = await registerClient(t.app, { redirectUris: [WEB_REDIRECT] });
      const verifier = oauth.generateRandomCodeVerifier();
      await runAuthorization(
        new BrowserSession(t.url),
        `${t.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: used.client_id, redirect_uri: NATIVE_REDIRECT, scope: 'profile', code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' })}`,
        user,
      );
      const exists = async (clientId: string) => (await t.app.get(DataSource).query(`SELECT 1 FROM oauth_clients WHERE client_id = '${clientId}'`)).length === 1;
      const purge = t.app.get(TokenPurgeService);

      clock.advance(30 * DAY_MS - 60_000);
      await purge.purge(clock.now());
      expect(await exists(unused.client_id)).toBe(true);

      clock.advance(60_000);
      const result = await purge.purge(clock.now());
      expect(result.unusedRegistrations).toBeGreaterThanOrEqual(1);
      expect(await exists(unused.client_id)).toBe(false);
      expect(await exists(used.client_id)).toBe(true);
      expect(await exists(cli.clientId)).toBe(true);
      expect((await manage('GET', unused.client_id, unused.registration_access_token)).status).toBe(401);
    } finally {
      clock.restore();
    }
  });

  it('lists an authorized dynamically registered client under Connected apps, like any other', async () => {
    const agent = await nativeClient('Listed Agent');
    const owner = await createSignInUser(t.app);
    const verifier = oauth.generateRandomCodeVerifier();
    await runAuthorization(
      new BrowserSession(t.url),
      `${t.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: agent.client_id, redirect_uri: NATIVE_REDIRECT, scope: 'profile read:startups', code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' })}`,
      owner,
    );
    const browser = new BrowserSession(t.url);
    await signInAt(browser, '/account/apps', owner);
    const page = await browser.get('/account/apps');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<bdi>Listed Agent</bdi>');
    expect(page.text).toContain(`value="${agent.client_id}"`);
    expect(page.text).toContain('Read startup data');
  });
});

describe('dynamic client registration closed (DYNAMIC_REGISTRATION=closed)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ DYNAMIC_REGISTRATION: 'closed' });
  });
  afterAll(() => t.close());

  it('answers 403 access_denied, stores nothing, and leaves registration_endpoint out of discovery', async () => {
    const [before] = await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM oauth_clients');
    const res = await http(t.url, '/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Closed Agent', redirect_uris: [WEB_REDIRECT] }),
    });
    expect([res.status, res.body.error]).toEqual([403, 'access_denied']);
    expect(res.body.error_description).toMatch(/closed/);
    const [after] = await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM oauth_clients');
    expect(Number(after.n)).toBe(Number(before.n));
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      expect((await http(t.url, path)).body.registration_endpoint).toBeUndefined();
    }
  });

  it('answers 403 access_denied whatever the body: a form, or none', async () => {
    for (const [body, contentType] of [['client_name=x&redirect_uris=https%3A%2F%2Fapp.example%2Fcb', 'application/x-www-form-urlencoded'], [undefined, undefined]] as const) {
      const res = await http(t.url, '/oauth/register', { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body });
      expect([contentType, res.status, res.body.error]).toEqual([contentType, 403, 'access_denied']);
    }
  });
});

import * as fc from 'fast-check';
import * as oauth from 'oauth4webapi';
import { DataSource } from 'typeorm';
import { ClientsService } from '../../src/clients/clients.service';
import { Clock } from '../../src/common/clock';
import { http } from '../helpers/http';
import { basicAuth, BrowserSession, createSignInUser, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * Pushed Authorization Requests (RFC 9126; docs/integrate-with-oauth.md, "Pushed authorization
 * requests") driven by an unchanged client library (oauth4webapi): the push, then authorize with only
 * client_id and request_uri, sign-in and consent over HTTP, the code exchanged for tokens. A
 * request_uri is single use, bound to the client that pushed it and short-lived (moved past its
 * lifetime with the app's Clock, never by waiting); bad pushes are RFC 6749 §5.2 errors that store
 * nothing.
 */
describe('pushed authorization requests', () => {
  let t: TestApp;
  let as: oauth.AuthorizationServer;
  let user: OAuthTestUser;
  let confidential: OAuthTestClient;
  let publicClient: OAuthTestClient;
  const insecure = { [oauth.allowInsecureRequests]: true } as const;

  beforeAll(async () => {
    t = await startTestApp();
    user = await createSignInUser(t.app);
    confidential = await registerClient(t.app, { redirectUris: ['http://127.0.0.1:9/callback'] });
    publicClient = await registerClient(t.app, { type: 'public', redirectUris: ['http://127.0.0.1:9/app'] });
    const issuer = new URL(t.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const pushedRows = async () => Number((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM oauth_pushed_requests'))[0].n);

  function authOf(c: OAuthTestClient): oauth.ClientAuth {
    return c.clientSecret ? oauth.ClientSecretBasic(c.clientSecret) : oauth.None();
  }

  async function push(c: OAuthTestClient, parameters: Record<string, string>) {
    const response = await oauth.pushedAuthorizationRequest(as, { client_id: c.clientId }, authOf(c), parameters, insecure);
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    return oauth.processPushedAuthorizationResponse(as, { client_id: c.clientId }, response);
  }

  async function pushFor(c: OAuthTestClient, extra: Record<string, string> = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const pushed = await push(c, {
      response_type: 'code',
      redirect_uri: c.redirectUri,
      scope: 'profile read:startups',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
    });
    return { ...pushed, verifier, state };
  }

  const authorizeUrl = (clientId: string, requestUri: string, extra: Record<string, string> = {}) =>
    `${as.authorization_endpoint}?${new URLSearchParams({ client_id: clientId, request_uri: requestUri, ...extra })}`;

  it('is announced in the discovery document', () => {
    expect(as).toMatchObject({
      pushed_authorization_request_endpoint: `${t.url}/oauth/par`,
      require_pushed_authorization_requests: false,
      response_modes_supported: ['query', 'form_post'],
    });
  });

  it.each([
    ['a confidential client (client_secret_basic)', () => confidential],
    ['a public client (none, PKCE)', () => publicClient],
  ])('runs push, authorize with the request_uri, sign-in, consent and the code exchange for %s', async (_name, which) => {
    const c = which();
    const pushed = await pushFor(c);
    expect(pushed.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{32}$/);
    expect(pushed.expires_in).toBe(60);

    // RFC 9126 §4: only client_id and request_uri count; what else the query says is ignored.
    const url = authorizeUrl(c.clientId, pushed.request_uri, { redirect_uri: 'https://attacker.example/cb', scope: 'openid email', state: 'forged' });
    const callback = await runAuthorization(new BrowserSession(t.url), url, user);
    expect(callback.origin + callback.pathname).toBe(c.redirectUri);
    const params = oauth.validateAuthResponse(as, { client_id: c.clientId }, callback, pushed.state);

    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      { client_id: c.clientId },
      await oauth.authorizationCodeGrantRequest(as, { client_id: c.clientId }, authOf(c), params, c.redirectUri, pushed.verifier, insecure),
    );
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'profile read:startups' });
  });

  it('refuses a request_uri used once already: a page, no redirect', async () => {
    const pushed = await pushFor(confidential);
    const browser = new BrowserSession(t.url);
    await runAuthorization(browser, authorizeUrl(confidential.clientId, pushed.request_uri), user);

    const again = await browser.get(authorizeUrl(confidential.clientId, pushed.request_uri));
    expect(again.status).toBe(400);
    expect(again.location).toBeUndefined();
    expect(again.text).toContain('The pushed request (request_uri) was not found');
  });

  it('refuses another client\'s request_uri, which stays usable by its own client', async () => {
    const pushed = await pushFor(confidential);
    const browser = new BrowserSession(t.url);
    const foreign = await browser.get(authorizeUrl(publicClient.clientId, pushed.request_uri));
    expect(foreign.status).toBe(400);
    expect(foreign.location).toBeUndefined();
    expect(foreign.text).toContain('request_uri');

    const callback = await runAuthorization(browser, authorizeUrl(confidential.clientId, pushed.request_uri), user);
    expect(callback.searchParams.get('code')).toBeTruthy();
  });

  it('refuses a request_uri past its expires_in (the clock moved, not waited for)', async () => {
    const pushed = await pushFor(confidential);
    const clock = t.app.get(Clock);
    const now = clock.now();
    jest.spyOn(clock, 'now').mockReturnValue(now + pushed.expires_in * 1000 + 1);
    const late = await new BrowserSession(t.url).get(authorizeUrl(confidential.clientId, pushed.request_uri));
    expect(late.status).toBe(400);
    expect(late.location).toBeUndefined();
    expect(late.text).toContain('request_uri');
  });

  it('lets only one of two simultaneous authorize requests use a request_uri', async () => {
    const pushed = await pushFor(confidential);
    const answers = await Promise.all([1, 2, 3].map(() => new BrowserSession(t.url).get(authorizeUrl(confidential.clientId, pushed.request_uri))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
  });

  it('makes an application registered with --require-par push its requests', async () => {
    const { client } = await t.app.get(ClientsService).create({
      name: 'Pushed Only',
      type: 'confidential',
      redirectUris: ['http://127.0.0.1:9/pushed'],
      scopes: ['profile'],
      requirePar: true,
    });
    const plain = await new BrowserSession(t.url).get(
      `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: 'http://127.0.0.1:9/pushed', scope: 'profile', state: 's1' })}`,
    );
    expect(plain.status).toBe(302);
    const refused = new URL(plain.location!);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    expect(refused.searchParams.get('error_description')).toMatch(/pushed authorization request required/i);
    expect(refused.searchParams.get('state')).toBe('s1');
    expect(refused.searchParams.has('code')).toBe(false);

    const registered = { id: client.id, clientId: client.clientId, redirectUri: 'http://127.0.0.1:9/pushed', name: client.name };
    const secret = (await t.app.get(ClientsService).rotateSecret(client.clientId)).secret;
    const pushed = await push({ ...registered, clientSecret: secret }, { response_type: 'code', redirect_uri: registered.redirectUri, scope: 'profile', state: 's2' });
    const callback = await runAuthorization(new BrowserSession(t.url), authorizeUrl(client.clientId, pushed.request_uri), user);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('state')).toBe('s2');
  });

  describe('a push that authorize would refuse is an RFC 6749 §5.2 error and stores nothing', () => {
    const base = () => ({ response_type: 'code', redirect_uri: confidential.redirectUri, scope: 'profile', state: 'x' });
    const raw = (body: string, headers: Record<string, string> = {}) =>
      http(t.url, '/oauth/par', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(confidential.clientId, confidential.clientSecret!), ...headers },
        body,
      });

    it.each<[string, () => string, number, string]>([
      ['an unregistered redirect_uri', () => new URLSearchParams({ ...base(), redirect_uri: 'https://attacker.example/cb' }).toString(), 400, 'invalid_request'],
      ['no redirect_uri', () => new URLSearchParams({ response_type: 'code', scope: 'profile' }).toString(), 400, 'invalid_request'],
      ['response_type=token', () => new URLSearchParams({ ...base(), response_type: 'token' }).toString(), 400, 'unsupported_response_type'],
      ['an unknown scope', () => new URLSearchParams({ ...base(), scope: 'admin' }).toString(), 400, 'invalid_scope'],
      ['code_challenge_method=plain', () => new URLSearchParams({ ...base(), code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }).toString(), 400, 'invalid_request'],
      ['response_mode=fragment', () => new URLSearchParams({ ...base(), response_mode: 'fragment' }).toString(), 400, 'invalid_request'],
      ['a request_uri inside the push (RFC 9126 §2.1)', () => new URLSearchParams({ ...base(), request_uri: 'urn:ietf:params:oauth:request_uri:abc' }).toString(), 400, 'invalid_request'],
      ['a repeated parameter', () => `${new URLSearchParams(base())}&scope=profile`, 400, 'invalid_request'],
      ['prompt=none with login', () => new URLSearchParams({ ...base(), prompt: 'none login' }).toString(), 400, 'invalid_request'],
    ])('%s', async (_name, body, status, error) => {
      const before = await pushedRows();
      const res = await raw(body());
      expect([res.status, res.body.error]).toEqual([status, error]);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await pushedRows()).toBe(before);
    });

    it('a public client without PKCE', async () => {
      const res = await http(t.url, '/oauth/par', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: publicClient.clientId, response_type: 'code', redirect_uri: publicClient.redirectUri, scope: 'profile' }).toString(),
      });
      expect([res.status, res.body.error]).toEqual([400, 'invalid_request']);
      expect(res.body.error_description).toMatch(/PKCE/);
    });

    it('a wrong secret or no client authentication: 401 invalid_client', async () => {
      const before = await pushedRows();
      const wrong = await raw(new URLSearchParams(base()).toString(), { authorization: basicAuth(confidential.clientId, 'not-the-secret') });
      expect([wrong.status, wrong.body.error]).toEqual([401, 'invalid_client']);
      const anonymous = await http(t.url, '/oauth/par', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(base()).toString() });
      expect([anonymous.status, anonymous.body.error]).toEqual([401, 'invalid_client']);
      expect(await pushedRows()).toBe(before);
    });

    it('a JSON body', async () => {
      const res = await raw(JSON.stringify(base()), { 'content-type': 'application/json' });
      expect([res.status, res.body.error]).toEqual([400, 'invalid_request']);
    });
  });

  describe('hostile input', () => {
    const hostileText = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom('urn:ietf:params:oauth:request_uri:', 'urn:ietf:params:oauth:request_uri:' + 'A'.repeat(32), '\u0000', '%00', '../../etc/passwd', '<script>', "' OR 1=1 --", 'x'.repeat(5000)),
      fc.string({ maxLength: 40 }).map((s) => `urn:ietf:params:oauth:request_uri:${s}`),
    );

    it('a request_uri that is not ours: a 400 page, never a 5xx or a redirect, and a pending push stays usable', async () => {
      const pending = await pushFor(confidential);
      await fc.assert(
        fc.asyncProperty(hostileText, async (requestUri) => {
          fc.pre(requestUri !== pending.request_uri);
          const res = await http(t.url, `/oauth/authorize?${new URLSearchParams({ client_id: confidential.clientId, request_uri: requestUri })}`, { redirect: 'manual' });
          expect(res.status).toBe(400);
          expect(res.headers.get('location')).toBeNull();
        }),
        { numRuns: 60 },
      );
      const callback = await runAuthorization(new BrowserSession(t.url), authorizeUrl(confidential.clientId, pending.request_uri), user);
      expect(callback.searchParams.get('code')).toBeTruthy();
    });

    it('a pushed form of any names and values: 201, or a clear 400/401 JSON error that stores nothing', async () => {
      const name = fc.oneof(fc.constantFrom('response_type', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'response_mode', 'prompt', 'nonce', 'max_age', 'login_hint', 'request_uri', 'request', 'client_id'), fc.string({ minLength: 1, maxLength: 12 }));
      const value = fc.oneof(hostileText, fc.constantFrom('code', 'form_post', 'query', confidential.redirectUri, 'profile', 'S256', 'none'));
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(name, value), { maxLength: 10 }), async (pairs) => {
          const before = await pushedRows();
          const body = new URLSearchParams([['response_type', 'code'], ['redirect_uri', confidential.redirectUri], ...pairs]).toString();
          const res = await http(t.url, '/oauth/par', {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(confidential.clientId, confidential.clientSecret!) },
            body,
          });
          expect([201, 400, 401]).toContain(res.status);
          if (res.status === 201) {
            expect(res.body.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:/);
            expect(await pushedRows()).toBe(before + 1);
          } else {
            expect(res.body).toEqual({ error: expect.stringMatching(/^[a-z_]+$/), error_description: expect.any(String) });
            expect(await pushedRows()).toBe(before);
          }
        }),
        { numRuns: 80 },
      );
    });
  });
});

describe('pushed authorization requests under the client rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_CLIENT: '2' });
  });
  afterAll(() => t.close());

  it('counts /oauth/par against RATE_LIMIT_CLIENT: past it, 429 with Retry-After and nothing stored', async () => {
    const c = await registerClient(t.app);
    const send = () =>
      http(t.url, '/oauth/par', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(c.clientId, c.clientSecret!) },
        body: new URLSearchParams({ response_type: 'code', redirect_uri: c.redirectUri, scope: 'profile' }).toString(),
      });
    expect((await send()).status).toBe(201);
    expect((await send()).status).toBe(201);
    const limited = await send();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.body.error).toBe('invalid_request');
    expect(Number((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM oauth_pushed_requests'))[0].n)).toBe(2);
  });
});

import { randomBytes } from 'node:crypto';
import { MetricsServer } from '../../src/metrics/metrics.server';
import { MetricsService } from '../../src/metrics/metrics.service';
import { s256Challenge } from '../../src/oauth/pkce';
import { createTestApiKey } from '../helpers/api-keys';
import { http, HttpResponse } from '../helpers/http';
import { authorizePath, basicAuth, BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, registerClient, runAuthorization } from '../helpers/oauth';
import { Exposition, metricsUrl, parseExposition, scrape } from '../helpers/prometheus';
import { engine, startTestApp, TestApp } from '../helpers/test-app';
import { bearer, issueTestToken } from '../helpers/tokens';

/** Listening TCP servers of this process (the public listener, the metrics listener, …). */
const listeners = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;

/** A client address of its own per test (TRUST_PROXY is on), so rate limits and sign-in throttles never meet. */
const ip = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;

// First in the file, while no other application of this suite holds (or is still releasing) a listener.
describe('Prometheus metrics with METRICS_PORT unset', () => {
  let t: TestApp;
  let added: number;

  beforeAll(async () => {
    const before = listeners();
    t = await startTestApp();
    added = listeners() - before;
  });
  afterAll(() => t?.close());

  it('listens nowhere but the public port, and records nothing', async () => {
    expect(added).toBe(1);
    expect(t.app.get(MetricsServer, { strict: false }).address()).toBeNull();
    expect(t.app.get(MetricsService, { strict: false }).registry).toBeUndefined();
    expect((await http(t.url, '/metrics')).status).toBe(404);
  });
});

describe('Prometheus metrics (docs/configuration-and-deployment.md, Metrics)', () => {
  let t: TestApp;
  /** Every secret and address the suite sends, to prove none of them reaches a label. */
  const sent: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      METRICS_PORT: '0',
      TRUST_PROXY: 'true',
      RATE_LIMIT_ANONYMOUS: '3',
      RATE_LIMIT_STANDARD: '2',
      RATE_LIMIT_PARTNER: '4',
      RATE_LIMIT_CLIENT: '12',
      SIGN_IN_MAX_FAILURES: '2',
    });
  });
  afterAll(() => t?.close());

  /** Runs `act` and returns the exposition before and after it. */
  async function around(act: () => Promise<unknown>): Promise<{ before: Exposition; after: Exposition }> {
    const before = await scrape(t.app);
    await act();
    return { before, after: await scrape(t.app) };
  }
  const delta = (d: { before: Exposition; after: Exposition }, name: string, labels: Record<string, string> = {}) =>
    d.after.value(name, labels) - d.before.value(name, labels);

  function tokenRequest(client: OAuthTestClient, form: Record<string, string>, headers: Record<string, string> = {}): Promise<HttpResponse> {
    sent.push(client.clientSecret!);
    return http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(client.clientId, client.clientSecret!), ...headers },
      body: new URLSearchParams(form).toString(),
    });
  }

  const VERIFIER = 'v'.repeat(43);

  /** The code flow through the real sign-in and consent forms, then the code redeemed: a token pair. */
  async function codeFlow(client: OAuthTestClient, email?: string): Promise<{ access_token: string; refresh_token: string }> {
    const user = await createSignInUser(t.app, email);
    sent.push(user.email, user.password);
    const browser = new BrowserSession(t.url);
    const url = authorizePath({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      scope: 'profile',
      code_challenge: s256Challenge(VERIFIER),
      code_challenge_method: 'S256',
    });
    const code = (await runAuthorization(browser, url, user)).searchParams.get('code')!;
    sent.push(code);
    const res = await tokenRequest(client, { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: VERIFIER });
    expect(res.status).toBe(200);
    sent.push(res.body.access_token, res.body.refresh_token);
    return res.body;
  }

  it('serves Prometheus text on its own listener, with the process metrics and every series of the contract', async () => {
    const base = metricsUrl(t.app)!;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const exposition = parseExposition(await res.text());

    expect(Object.fromEntries(exposition.types)).toMatchObject({
      http_requests_total: 'counter',
      http_request_duration_seconds: 'histogram',
      oauth_tokens_issued_total: 'counter',
      oauth_token_errors_total: 'counter',
      sign_ins_total: 'counter',
      rate_limited_requests_total: 'counter',
      oauth_refresh_token_reuse_revocations_total: 'counter',
      process_cpu_user_seconds_total: 'counter',
      process_resident_memory_bytes: 'gauge',
      nodejs_eventloop_lag_seconds: 'gauge',
      nodejs_heap_size_used_bytes: 'gauge',
    });
    expect(exposition.value('process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    // Known label values are there from the start, at 0.
    expect(exposition.matching('sign_ins_total').map((s) => s.labels.outcome).sort()).toEqual(['invalid_credentials', 'success', 'throttled']);
    expect(exposition.matching('rate_limited_requests_total').map((s) => s.labels.tier).sort()).toEqual(['anonymous', 'client', 'partner', 'standard']);

    if (engine() === 'postgres') {
      // The suites' pool has DATABASE_POOL_SIZE=5; migrations and the requests so far opened at least one.
      expect(exposition.value('db_pool_max_connections')).toBe(5);
      expect(exposition.value('db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(exposition.value('db_pool_idle_connections')).toBeLessThanOrEqual(exposition.value('db_pool_connections'));
      expect(exposition.types.get('db_pool_waiting_requests')).toBe('gauge');
    } else {
      // SQLite has no pool.
      expect(exposition.types.has('db_pool_connections')).toBe(false);
    }
  });

  it('answers only GET and HEAD /metrics on the metrics listener', async () => {
    const base = metricsUrl(t.app)!;
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics/x`)).status).toBe(404);
    const post = await fetch(`${base}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = await fetch(`${base}/metrics`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('never serves metrics on the public port: /metrics there is the usual 404 envelope', async () => {
    const res = await http(t.url, '/metrics', { headers: { 'accept-language': 'en' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String), requestId: res.headers.get('x-request-id') } });
    expect(res.text).not.toContain('http_requests_total');
  });

  it('counts requests by route template, method and status, with a duration histogram', async () => {
    const id = 900_000 + randomBytes(2).readUInt16BE();
    const d = await around(async () => {
      expect((await http(t.url, '/api/public/v1/industries', { headers: { 'x-forwarded-for': ip() } })).status).toBe(200);
      expect((await http(t.url, '/api/public/v1/industries', { headers: { 'x-forwarded-for': ip() } })).status).toBe(200);
      expect((await http(t.url, `/api/public/v1/industries/${id}`, { headers: { 'x-forwarded-for': ip() } })).status).toBe(404);
      expect((await http(t.url, `/api/public/v1/startups/${id}`)).status).toBe(401);
    });
    const industries = { route: '/api/public/v1/industries', method: 'GET', status: '200' };
    expect(delta(d, 'http_requests_total', industries)).toBe(2);
    expect(delta(d, 'http_request_duration_seconds_count', industries)).toBe(2);
    expect(delta(d, 'http_request_duration_seconds_bucket', { ...industries, le: '+Inf' })).toBe(2);
    expect(delta(d, 'http_request_duration_seconds_sum', industries)).toBeGreaterThan(0);
    // Buckets are cumulative: each holds at most what the next one holds.
    const buckets = d.after.matching('http_request_duration_seconds_bucket', industries).map((s) => s.value);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    // The template, never the id that was asked for.
    expect(delta(d, 'http_requests_total', { route: '/api/public/v1/industries/:id', method: 'GET', status: '404' })).toBe(1);
    expect(delta(d, 'http_requests_total', { route: '/api/public/v1/startups/:id', method: 'GET', status: '401' })).toBe(1);
    expect(d.after.labelValues().some((v) => v.includes(String(id)))).toBe(false);
  });

  it('counts every unmatched URL under one route label, so random paths cannot grow the series', async () => {
    const paths = Array.from({ length: 20 }, () => `/no-such/${randomBytes(8).toString('hex')}?email=probe%40example.com`);
    const d = await around(async () => {
      for (const path of paths) expect((await http(t.url, path)).status).toBe(404);
      // A known path with another method (405) is unmatched too.
      expect((await http(t.url, '/api/public/v1/industries', { method: 'POST', headers: { 'x-forwarded-for': ip() } })).status).toBe(405);
    });
    expect(delta(d, 'http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).toBe(20);
    expect(delta(d, 'http_requests_total', { route: 'unmatched', method: 'POST', status: '405' })).toBe(1);
    expect(d.after.matching('http_requests_total').length - d.before.matching('http_requests_total').length).toBeLessThanOrEqual(1);
    const labels = d.after.labelValues();
    for (const path of paths) expect(labels.some((v) => v.includes(path.split('/')[2].split('?')[0]))).toBe(false);
  });

  it('counts sign-ins by outcome through the real sign-in form: success, wrong password, throttled', async () => {
    const client = await registerClient(t.app, { scopes: ['profile'] });
    const user = await createSignInUser(t.app);
    sent.push(user.email, user.password);
    const address = ip();
    const browser = new BrowserSession(t.url);
    const url = authorizePath({ response_type: 'code', client_id: client.clientId, redirect_uri: client.redirectUri, scope: 'profile', code_challenge: s256Challenge(VERIFIER), code_challenge_method: 'S256' });
    const signIn = async (password: string) => {
      const page = await browser.get(url, { 'x-forwarded-for': address });
      return browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: user.email, password }, { 'x-forwarded-for': address });
    };

    const d = await around(async () => {
      expect((await signIn(user.password)).status).toBe(200); // the consent page
      browser.cookies.clear();
      expect((await signIn('wrong password')).status).toBe(400);
      expect((await signIn('wrong again')).status).toBe(400);
      // SIGN_IN_MAX_FAILURES=2: refused before the password is checked, even the right one.
      expect((await signIn(user.password)).status).toBe(429);
    });
    expect(delta(d, 'sign_ins_total', { outcome: 'success' })).toBe(1);
    expect(delta(d, 'sign_ins_total', { outcome: 'invalid_credentials' })).toBe(2);
    expect(delta(d, 'sign_ins_total', { outcome: 'throttled' })).toBe(1);
  });

  it('counts sign-ins on the account sign-in page the same way', async () => {
    const user = await createSignInUser(t.app);
    sent.push(user.email, user.password);
    const headers = { 'x-forwarded-for': ip() };
    const browser = new BrowserSession(t.url);
    const d = await around(async () => {
      const page = await browser.get('/oauth/sign-in?return_to=%2Faccount', headers);
      const failed = await browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: user.email, password: 'wrong password' }, headers);
      expect(failed.status).toBe(400);
      const signedIn = await browser.post('/oauth/sign-in', { ...hiddenInputs(failed.text), email: user.email, password: user.password }, headers);
      expect(signedIn.status).toBe(303);
      expect(signedIn.location).toBe('/account');
    });
    expect(delta(d, 'sign_ins_total', { outcome: 'success' })).toBe(1);
    expect(delta(d, 'sign_ins_total', { outcome: 'invalid_credentials' })).toBe(1);
    expect(delta(d, 'sign_ins_total', { outcome: 'throttled' })).toBe(0);
  });

  it('counts tokens issued by grant type', async () => {
    const client = await registerClient(t.app, { scopes: ['profile', 'read:startups'] });
    const d = await around(async () => {
      const pair = await codeFlow(client);
      const refreshed = await tokenRequest(client, { grant_type: 'refresh_token', refresh_token: pair.refresh_token });
      expect(refreshed.status).toBe(200);
      sent.push(refreshed.body.access_token, refreshed.body.refresh_token);
      const machine = await tokenRequest(client, { grant_type: 'client_credentials', scope: 'read:startups' });
      expect(machine.status).toBe(200);
      sent.push(machine.body.access_token);
    });
    expect(delta(d, 'oauth_tokens_issued_total', { grant_type: 'authorization_code' })).toBe(1);
    expect(delta(d, 'oauth_tokens_issued_total', { grant_type: 'refresh_token' })).toBe(1);
    expect(delta(d, 'oauth_tokens_issued_total', { grant_type: 'client_credentials' })).toBe(1);
    expect(delta(d, 'sign_ins_total', { outcome: 'success' })).toBe(1);
    expect(delta(d, 'oauth_token_errors_total')).toBe(0);
  });

  it('counts token-endpoint errors by the error code the client received', async () => {
    const client = await registerClient(t.app);
    const wrongSecret = { ...client, clientSecret: `${client.clientSecret}x` };
    const answers: HttpResponse[] = [];
    const d = await around(async () => {
      answers.push(await tokenRequest(client, { grant_type: 'authorization_code', code: 'sp_ac_nothing', redirect_uri: client.redirectUri, code_verifier: VERIFIER }));
      answers.push(await tokenRequest(wrongSecret, { grant_type: 'client_credentials' }));
      answers.push(await tokenRequest(client, { grant_type: 'password', username: 'a@example.com', password: 'x' }));
      answers.push(await tokenRequest(client, {}));
      answers.push(await tokenRequest(client, { grant_type: 'client_credentials', scope: 'no-such-scope' }));
      // Refused before any handler runs: a JSON body.
      answers.push(
        await http(t.url, '/oauth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: basicAuth(client.clientId, client.clientSecret!) },
          body: JSON.stringify({ grant_type: 'client_credentials' }),
        }),
      );
    });
    expect(answers.map((a) => a.body.error)).toEqual(['invalid_grant', 'invalid_client', 'unsupported_grant_type', 'invalid_request', 'invalid_scope', 'invalid_request']);
    expect(delta(d, 'oauth_token_errors_total', { error: 'invalid_grant' })).toBe(1);
    expect(delta(d, 'oauth_token_errors_total', { error: 'invalid_client' })).toBe(1);
    expect(delta(d, 'oauth_token_errors_total', { error: 'unsupported_grant_type' })).toBe(1);
    expect(delta(d, 'oauth_token_errors_total', { error: 'invalid_scope' })).toBe(1);
    expect(delta(d, 'oauth_token_errors_total', { error: 'invalid_request' })).toBe(2);
    expect(delta(d, 'oauth_token_errors_total')).toBe(6);
    expect(delta(d, 'oauth_tokens_issued_total')).toBe(0);
  });

  it('counts a refresh family revoked for reuse, and not a merely unknown refresh token', async () => {
    const client = await registerClient(t.app);
    const pair = await codeFlow(client);
    const rotated = await tokenRequest(client, { grant_type: 'refresh_token', refresh_token: pair.refresh_token });
    expect(rotated.status).toBe(200);
    sent.push(rotated.body.refresh_token);

    const unknown = await around(() => tokenRequest(client, { grant_type: 'refresh_token', refresh_token: 'sp_rt_unknown' }));
    expect(delta(unknown, 'oauth_refresh_token_reuse_revocations_total')).toBe(0);

    const reuse = await around(async () => {
      const replay = await tokenRequest(client, { grant_type: 'refresh_token', refresh_token: pair.refresh_token });
      expect(replay.body.error).toBe('invalid_grant');
      // The family is gone: the newest token of it is refused too (revoked, not a second reuse).
      expect((await tokenRequest(client, { grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token })).body.error).toBe('invalid_grant');
    });
    expect(delta(reuse, 'oauth_refresh_token_reuse_revocations_total')).toBe(1);
    expect(delta(reuse, 'oauth_token_errors_total', { error: 'invalid_grant' })).toBe(2);
  });

  it('counts 429s by tier: anonymous, standard and partner API keys, OAuth clients', async () => {
    const standard = await createTestApiKey(t.app, 'standard');
    const partner = await createTestApiKey(t.app, 'partner');
    const token = await issueTestToken(t.app, { scopes: ['profile'] });
    sent.push(standard.key, partner.key, token.token);
    const statuses = async (n: number, headers: Record<string, string>, path = '/api/public/v1/industries') => {
      const seen: number[] = [];
      for (let i = 0; i < n; i++) seen.push((await http(t.url, path, { headers })).status);
      return seen;
    };

    const d = await around(async () => {
      // RATE_LIMIT_ANONYMOUS=3, RATE_LIMIT_STANDARD=2, RATE_LIMIT_PARTNER=4, RATE_LIMIT_CLIENT=12 per minute.
      expect(await statuses(5, { 'x-forwarded-for': ip() })).toEqual([200, 200, 200, 429, 429]);
      expect(await statuses(3, { 'x-forwarded-for': ip(), 'x-api-key': standard.key })).toEqual([200, 200, 429]);
      expect(await statuses(5, { 'x-forwarded-for': ip(), 'x-api-key': partner.key })).toEqual([200, 200, 200, 200, 429]);
      expect(await statuses(13, bearer(token.token), '/api/public/v1/me')).toEqual([...Array(12).fill(200), 429]);
    });
    expect(delta(d, 'rate_limited_requests_total', { tier: 'anonymous' })).toBe(2);
    expect(delta(d, 'rate_limited_requests_total', { tier: 'standard' })).toBe(1);
    expect(delta(d, 'rate_limited_requests_total', { tier: 'partner' })).toBe(1);
    expect(delta(d, 'rate_limited_requests_total', { tier: 'client' })).toBe(1);
    expect(delta(d, 'http_requests_total', { route: '/api/public/v1/industries', status: '429' })).toBe(4);
  });

  it('a client over its limit at the token endpoint counts as rate limited and as a token error', async () => {
    const client = await registerClient(t.app, { scopes: ['read:startups'] });
    const d = await around(async () => {
      const answers: HttpResponse[] = [];
      for (let i = 0; i < 13; i++) answers.push(await tokenRequest(client, { grant_type: 'client_credentials' }));
      expect(answers.map((a) => a.status)).toEqual([...Array(12).fill(200), 429]);
      sent.push(...answers.slice(0, 12).map((a) => a.body.access_token));
    });
    expect(delta(d, 'rate_limited_requests_total', { tier: 'client' })).toBe(1);
    expect(delta(d, 'oauth_tokens_issued_total', { grant_type: 'client_credentials' })).toBe(12);
    expect(delta(d, 'oauth_token_errors_total')).toBe(1);
  });

  it('holds no token, key, secret, email or URL in any label', async () => {
    const exposition = await scrape(t.app);
    const labels = exposition.labelValues();
    expect(sent.length).toBeGreaterThan(20);
    for (const secret of sent) expect(labels.filter((v) => v.includes(secret))).toEqual([]);
    expect(labels.filter((v) => /sp_(key|at|rt|cs|ac)_|@|\?/.test(v))).toEqual([]);
    // Routes are templates or the one unmatched value.
    const routes = new Set(exposition.matching('http_requests_total').map((s) => s.labels.route));
    for (const route of routes) expect(route === 'unmatched' || /^\/[a-z0-9/_:.-]*$/i.test(route)).toBe(true);
    expect(routes.size).toBeLessThan(20);
  });
});

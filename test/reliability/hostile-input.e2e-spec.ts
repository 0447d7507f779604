import { connect } from 'node:net';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { ERROR_CODES } from '../../src/common/errors/error-codes';
import { http } from '../helpers/http';
import { basicAuth, BrowserSession, hiddenInputs, OAuthTestClient, registerClient } from '../helpers/oauth';
import { issueTestToken } from '../helpers/tokens';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * Property-based hostile input over every route the reference documents, and the two form posts of
 * the sign-in and consent pages it leaves out: whatever arrives in the path, query, headers or body —
 * huge values, NUL bytes, invalid UTF-8 and percent-encoding, arrays where scalars belong, SQL and HTML
 * metacharacters, oversized headers and bodies — the answer is never a 5xx, never leaks internals, is
 * always in the shape the contract gives that endpoint, never redirects anywhere but a registered
 * redirect URI, and writes nothing.
 *
 * The shapes (docs/using-the-api.md, Envelopes; docs/integrate-with-oauth.md): the `{error:{code,message,requestId}}` envelope on the public API, an
 * RFC 6749 §5.2 body on `/oauth/token|revoke|introspect|userinfo|jwks|par|device_authorization|register`, an HTML page on
 * the pages of the authorization flow (`/oauth/authorize`, `/oauth/sign-in`, `/oauth/consent`, `/oauth/logout`,
 * `/device`).
 */
const OAUTH_JSON = new Set(['/oauth/token', '/oauth/revoke', '/oauth/introspect', '/oauth/userinfo', '/oauth/jwks', '/oauth/par', '/oauth/device_authorization', '/oauth/register']);
/**
 * Dynamic registration's management endpoint (RFC 7592) answers RFC JSON as well, for any client id in its
 * path: the path as it is sent, dot segments resolved (`%2e%2e` is `..` to a URL parser).
 */
const isOAuthJson = (path: string) => {
  const sent = new URL(path, 'http://host.invalid').pathname;
  return OAUTH_JSON.has(path) || /^\/oauth\/register\/[^/]*$/.test(sent);
};
const OAUTH_PAGES = new Set(['/oauth/authorize', '/oauth/sign-in', '/oauth/consent', '/oauth/logout', '/device', '/device/consent']);
const LEAKS = [/\n\s+at /, /node_modules/, /QueryFailedError/i, /SQLITE_/, /typeorm/i, /syntax error at or near/i, /\.ts:\d+/, /\/src\//, /pg-pool/i];
// Tables that a rejected request may legitimately touch: failed sign-ins are counted by design.
const MAY_WRITE = new Set(['sign_in_throttles', 'migrations']);
const BODY_LIMIT = 16384;
// What Node's HTTP parser answers itself, before any route is known (headers too large, bytes that are
// not HTTP): the envelope, also on a page path, as the reference documents.
const PARSER_CODES = new Set(['HEADERS_TOO_LARGE', 'BAD_REQUEST']);
const REDIRECT_URI = 'https://app.example/cb';

const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    "1' OR '1'='1",
    '1; DROP TABLE startups; --',
    "' UNION SELECT token_hash FROM oauth_access_tokens --",
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    '%00',
    '\u0000',
    'a\u0000b',
    '..%2F..%2Fetc%2Fpasswd',
    '../../etc/passwd',
    '%',
    '_',
    '%_%',
    '\\',
    '-1',
    '1e309',
    '0x10',
    '9'.repeat(400),
    'ı̇İ',
    '\uD800',
    '\uFFFF',
    '${jndi:ldap://x}',
    '{{7*7}}',
    '__proto__',
    'constructor',
    'javascript:alert(1)',
    '//evil.example/',
    'https://evil.example/cb',
    `${REDIRECT_URI}/../evil`,
    `${REDIRECT_URI}?x=1`,
    `${REDIRECT_URI}#frag`,
    REDIRECT_URI.toUpperCase(),
  ),
  fc.integer().map(String),
  fc.string({ minLength: 2000, maxLength: 9000 }),
);

function encodePart(value: string, raw: boolean): string {
  if (!raw) return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  return value.replace(/[^A-Za-z0-9%._~-]/g, (c) => encodeURIComponent(c.replace(/[\uD800-\uDFFF]/g, '\uFFFD')));
}

const headerSafe = fc.stringMatching(/^[\x20-\x7e]{0,300}$/);

/** Bytes that are not UTF-8, percent-escapes that decode to no character, and control bytes. */
const BAD_ESCAPES = ['%FF', '%C3%28', '%E0%80%AF', '%ED%A0%80', '%F8%88%80%80%80', '%C0%AE', '%', '%G1', '%%', '%0', '%00', '%0A', '%0D%0A', '%E2%82', '+'];
const badEscape = fc.constantFrom(...BAD_ESCAPES);
/** A percent-encoded string with invalid sequences mixed in. */
const badlyEncoded = fc.array(fc.oneof(badEscape, nasty.map((v) => encodePart(v, false))), { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));

type Shaped = { status: number; headers: { get(name: string): string | null }; text: string };

describe('hostile input on every route', () => {
  let t: TestApp;
  let client: OAuthTestClient;
  let routes: Array<{ method: string; path: string; params: string[] }>;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ANONYMOUS: '1000000', RATE_LIMIT_CLIENT: '1000000', BODY_LIMIT_BYTES: String(BODY_LIMIT) });
    client = await registerClient(t.app, { redirectUris: [REDIRECT_URI] });
    const doc = (await http(t.url, '/docs-json')).body;
    routes = [];
    for (const [path, operations] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(operations)) {
        routes.push({ method: method.toUpperCase(), path, params: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]) });
      }
    }
    // The sign-in and consent form posts are not in the reference (a browser, not a client, calls them).
    routes.push({ method: 'POST', path: '/oauth/sign-in', params: [] }, { method: 'POST', path: '/oauth/consent', params: [] });
  });
  afterAll(() => t.close());

  async function rowCounts(): Promise<Record<string, number>> {
    const source = t.app.get(DataSource);
    const counts: Record<string, number> = {};
    for (const entity of source.entityMetadatas) {
      if (MAY_WRITE.has(entity.tableName)) continue;
      const [row] = await source.query(`SELECT COUNT(*) AS n FROM ${entity.tableName}`);
      counts[entity.tableName] = Number(row.n);
    }
    return counts;
  }

  /** The contract's shape for `path`, whatever the input was. */
  function expectContractShape(where: string, path: string, res: Shaped, body: any): void {
    expect([where, res.status < 500]).toEqual([where, true]);
    for (const leak of LEAKS) expect([where, leak.test(res.text)]).toEqual([where, false]);
    const type = res.headers.get('content-type') ?? '';
    if (res.status >= 300 && res.status < 400) {
      // No open redirect: the only place this server sends a browser is a registered redirect URI.
      const location = res.headers.get('location') ?? '';
      expect([where, location.startsWith(`${REDIRECT_URI}?`)]).toEqual([where, true]);
      return;
    }
    if (res.status < 400) return;
    if (isOAuthJson(path)) {
      expect([where, type]).toEqual([where, expect.stringMatching(/^application\/json/)]);
      expect([where, body?.error]).toEqual([where, expect.stringMatching(/^[a-z_]+$/)]);
      // RFC 6749 §5.2: error_description is printable ASCII without " and \.
      expect([where, body.error_description]).toEqual([where, expect.stringMatching(/^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/)]);
    } else if (OAUTH_PAGES.has(path) && !(type.startsWith('application/json') && PARSER_CODES.has(body?.error?.code))) {
      expect([where, type]).toEqual([where, expect.stringMatching(/^text\/html/)]);
      expect([where, res.headers.get('x-frame-options')]).toEqual([where, 'DENY']);
      expect([where, res.text]).toEqual([where, expect.stringMatching(/^<!doctype html>/)]);
    } else {
      expect([where, type]).toEqual([where, expect.stringMatching(/^application\/json/)]);
      expect([where, ERROR_CODES.includes(body?.error?.code)]).toEqual([where, true]);
      expect([where, body.error.requestId]).toEqual([where, res.headers.get('x-request-id')]);
    }
  }

  /**
   * One request as raw bytes on its own connection; the first answer parsed as HTTP/1.1. The socket is
   * not half-closed after the request: Node (like most servers) takes a client's FIN as an abort.
   */
  function rawRequest(bytes: Buffer): Promise<Shaped & { body: any }> {
    const { port } = new URL(t.url);
    return new Promise((resolve, reject) => {
      let raw = Buffer.alloc(0);
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
      socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
      const parse = (final: boolean) => {
        const split = raw.indexOf('\r\n\r\n');
        if (split === -1) return final ? reject(new Error(`no HTTP answer: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`)) : undefined;
        const [statusLine, ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
        const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        const length = Number(headers.get('content-length') ?? Number.NaN);
        if (!final && !(raw.length >= split + 4 + length)) return undefined;
        socket.destroy();
        // Only the first answer counts (a malformed request may be followed by a second, from its leftovers).
        const text = raw.subarray(split + 4, Number.isNaN(length) ? undefined : split + 4 + length).toString('utf8');
        let body: any;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0), headers: { get: (name: string) => headers.get(name) ?? null }, text, body });
      };
      socket.on('data', (chunk) => {
        raw = Buffer.concat([raw, chunk]);
        parse(false);
      });
      socket.on('error', reject);
      socket.on('close', () => parse(true));
    });
  }

  it('documents the routes it fuzzes', () => {
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['GET /oauth/authorize', 'POST /oauth/token', 'POST /oauth/sign-in']));
  });

  it('never answers 5xx, never leaks, always answers in the contract’s shape, and writes nothing', async () => {
    const before = await rowCounts();
    const clientId = fc.oneof(nasty, fc.constant(client.clientId));
    const redirectUri = fc.oneof(nasty, fc.constant(REDIRECT_URI));
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(
          fc.array(nasty, { minLength: route.params.length, maxLength: route.params.length }),
          fc.boolean(),
          fc.dictionary(
            fc.oneof(fc.constantFrom('limit', 'offset', 'q', 'sort', 'industryId', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'prompt'), fc.string({ maxLength: 12 })),
            fc.oneof(nasty, fc.array(nasty, { maxLength: 3 })),
            { maxKeys: 4 },
          ),
          fc.record({ client_id: fc.oneof(clientId, fc.array(clientId, { maxLength: 2 })), redirect_uri: fc.oneof(redirectUri, fc.array(redirectUri, { maxLength: 2 })) }, { requiredKeys: [] }),
          fc.record({
            'accept-language': headerSafe,
            'x-api-key': headerSafe,
            authorization: fc.oneof(headerSafe, headerSafe.map((v) => `Bearer ${v}`), headerSafe.map((v) => `Basic ${v}`)),
            'x-request-id': headerSafe,
            cookie: headerSafe.map((v) => `sp_session=${v}`),
            origin: fc.oneof(headerSafe, fc.constant('null'), fc.constant('https://evil.example')),
            'sec-fetch-site': fc.constantFrom('same-origin', 'cross-site', 'none', 'same-site'),
          }, { requiredKeys: [] }),
          fc.option(fc.record({ type: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/xml', 'multipart/form-data'), body: fc.oneof(nasty, fc.json()) })),
          async (params, rawEncoding, query, oauthQuery, headers, body) => {
            let path = route.path;
            route.params.forEach((name, i) => (path = path.replace(`{${name}}`, encodePart(params[i], rawEncoding) || 'x')));
            const search = new URLSearchParams();
            for (const [key, value] of Object.entries({ ...query, ...oauthQuery })) {
              for (const v of Array.isArray(value) ? value : [value]) search.append(key, v.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
            }
            const qs = search.toString();
            const init: RequestInit = { method: route.method, headers: { ...headers }, signal: AbortSignal.timeout(10_000) };
            if (body && !['GET', 'HEAD'].includes(route.method)) {
              (init.headers as Record<string, string>)['content-type'] = body.type;
              init.body = body.body.replace(/[\uD800-\uDFFF]/g, '\uFFFD');
            }
            const target = qs ? `${path}?${qs}` : path;
            const res = await http(t.url, target, init).catch((error: Error) => {
              throw new Error(`${route.method} ${target.slice(0, 200)} did not answer: ${error.message}`);
            });
            expectContractShape(`${route.method} ${target.slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`, path.split('?')[0], res, res.body);
          },
        ),
        { numRuns: 50, endOnFailure: true },
      );
    }
    expect(await rowCounts()).toEqual(before);
  }, 300_000);

  it('refuses a query field named like a member every object inherits as the unknown field it is, on every API route', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['profile', 'read:startups'] });
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype']) {
      for (const path of [`/api/public/v1/industries?${name}=1`, `/api/public/v1/industries/1?${name}=1`, `/api/public/v1/startups?limit=2&${name}=x`, `/api/public/v1/me?${name}=1`]) {
        const res = await http(t.url, path, { headers: { authorization: `Bearer ${token}` } });
        expect([path, res.status, res.body.error.code, res.body.error.details]).toEqual([path, 400, 'VALIDATION_ERROR', [expect.objectContaining({ field: name })]]);
      }
    }
  });

  it('takes whole numbers in the query and path only as decimal digits: 0x1, 1e0, +1, a space or Infinity is a VALIDATION_ERROR, not 1', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['profile', 'read:startups'] });
    const get = (path: string) => http(t.url, path, { headers: { authorization: `Bearer ${token}` } });
    for (const [path, field] of [
      ...['0x1', '1e0', '+1', '%201', '1%20', '1.0', 'Infinity', '0b1'].map((id) => [`/api/public/v1/industries/${id}`, 'id']),
      ['/api/public/v1/startups?limit=0x2', 'limit'],
      ['/api/public/v1/startups?limit=1e1', 'limit'],
      ['/api/public/v1/startups?offset=+0', 'offset'],
      ['/api/public/v1/startups?industryId=0b1', 'industryId'],
    ]) {
      const res = await get(path);
      expect([path, res.status, res.body.error?.code, res.body.error?.details?.[0]?.field]).toEqual([path, 400, 'VALIDATION_ERROR', field]);
    }
    for (const path of ['/api/public/v1/industries/1', '/api/public/v1/industries/01', '/api/public/v1/startups?limit=2&offset=0&industryId=1']) expect([path, (await get(path)).status]).toEqual([path, 200]);
  });

  it('answers any form posted to the OAuth endpoints in their shape: repeated, missing, huge or badly encoded fields, any client authentication', async () => {
    const before = await rowCounts();
    const fields = ['grant_type', 'code', 'redirect_uri', 'code_verifier', 'refresh_token', 'scope', 'client_id', 'client_secret', 'token', 'token_type_hint', 'email', 'password', 'csrf_token', 'transaction', 'decision'];
    const value = fc.oneof(
      nasty,
      fc.constantFrom('authorization_code', 'refresh_token', 'client_credentials', 'read:startups', 'profile', 'approve', 'deny', client.clientId, REDIRECT_URI, client.clientSecret!),
      badlyEncoded,
    );
    // A well-formed client_credentials request among the fuzz is granted (an access token row, nothing else).
    let granted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...OAUTH_JSON, '/oauth/sign-in', '/oauth/consent'),
        // Arrays are repeated fields (RFC 6749 §3.2: each at most once).
        fc.array(fc.tuple(fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 10 })), fc.oneof(value, fc.array(value, { minLength: 2, maxLength: 3 }))), { maxLength: 6 }),
        fc.boolean(),
        fc.option(
          fc.oneof(
            fc.constant(basicAuth(client.clientId, client.clientSecret!)),
            fc.tuple(nasty, nasty).map(([id, secret]) => basicAuth(id.replace(/[\uD800-\uDFFF]/g, ''), secret.replace(/[\uD800-\uDFFF]/g, ''))),
            headerSafe.map((v) => `Basic ${v}`),
            headerSafe.map((v) => `Bearer ${v}`),
          ),
        ),
        fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8', 'APPLICATION/X-WWW-FORM-URLENCODED', 'application/x-www-form-urlencoded; charset=latin1'),
        async (path, pairs, raw, authorization, contentType) => {
          const body = pairs
            .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one) => `${encodePart(k, false)}=${raw ? one.replace(/[^\x21-\x7e]/g, (c) => encodePart(c, false)) : encodePart(one, false)}`))
            .join('&');
          const headers: Record<string, string> = { 'content-type': contentType, origin: t.url };
          if (authorization) headers.authorization = authorization;
          const res = await http(t.url, path, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
          expectContractShape(`POST ${path} ${body.slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`, path, res, res.body);
          if (path === '/oauth/token' && res.status === 200) {
            expect([body, res.body.refresh_token]).toEqual([body, undefined]);
            granted += 1;
          }
        },
      ),
      { numRuns: 400, endOnFailure: true },
    );
    expect(await rowCounts()).toEqual({ ...before, oauth_access_tokens: before.oauth_access_tokens + granted });
  }, 300_000);

  it('answers any scope asked with client_credentials either with a token for exactly that scope or with invalid_scope', async () => {
    const before = await rowCounts();
    let granted = 0;
    const scopeToken = fc.oneof(nasty, fc.constantFrom('read:startups', 'profile', 'openid', 'email', 'offline_access', 'READ:STARTUPS', 'read:startups\u0000'));
    await fc.assert(
      fc.asyncProperty(fc.array(scopeToken, { maxLength: 4 }), fc.constantFrom(' ', '  ', '+', '\t'), async (tokens, separator) => {
        const scope = tokens.join(separator).replace(/[\uD800-\uDFFF]/g, '\uFFFD');
        const body = new URLSearchParams({ grant_type: 'client_credentials', scope }).toString();
        const res = await http(t.url, '/oauth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(client.clientId, client.clientSecret!) },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        const where = `scope=${JSON.stringify(scope).slice(0, 200)} → ${res.status} ${res.text.slice(0, 200)}`;
        expectContractShape(where, '/oauth/token', res, res.body);
        if (res.status === 200) {
          granted += 1;
          // Only read:startups is registered for this client without a user; the answer never widens it.
          expect([where, res.body.scope, res.body.refresh_token]).toEqual([where, 'read:startups', undefined]);
        } else if (Buffer.byteLength(body) > BODY_LIMIT) {
          expect([where, res.status, res.body.error]).toEqual([where, 413, 'invalid_request']);
        } else {
          expect([where, res.status, res.body.error]).toEqual([where, 400, 'invalid_scope']);
        }
      }),
      { numRuns: 200, endOnFailure: true },
    );
    expect(await rowCounts()).toEqual({ ...before, oauth_access_tokens: before.oauth_access_tokens + granted });
  }, 120_000);

  it('answers raw requests with invalid UTF-8, NUL and control bytes, and bad percent-encoding, on the path, query, headers and body', async () => {
    const before = await rowCounts();
    const paths = ['/api/public/v1/industries', '/api/public/v1/startups', '/api/public/v1/me', '/health', '/oauth/authorize', '/oauth/token', '/oauth/introspect', '/oauth/userinfo', '/oauth/sign-in', '/oauth/consent', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/oauth/jwks', '/oauth/logout'];
    // Raw bytes: invalid UTF-8 sequences, NUL and other control bytes, obs-text (0x80-0xFF).
    const rawBytes = fc.oneof(
      fc.constantFrom('\xff', '\xc3\x28', '\xe0\x80\xaf', '\xed\xa0\x80', '\x00', '\x01', '\x7f', '\x1b[31m', '\xc0\xae', '\xfe\xff'),
      badEscape,
      fc.string({ maxLength: 8 }).map((s) => Buffer.from(s, 'utf8').toString('latin1')),
    );
    const rawString = fc.array(rawBytes, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.constantFrom('GET', 'POST'),
        fc.option(rawString),
        fc.option(rawString),
        fc.option(fc.tuple(fc.constantFrom('X-Api-Key', 'Authorization', 'Accept-Language', 'X-Request-Id', 'Cookie', 'Content-Type', 'Origin'), rawString)),
        fc.option(fc.tuple(fc.constantFrom('application/x-www-form-urlencoded', 'application/json', 'text/plain'), rawString)),
        async (path, method, pathSuffix, query, header, body) => {
          const lines = [`${method} ${path}${pathSuffix ?? ''}${query ? `?q=${query}&client_id=${query}` : ''} HTTP/1.1`, 'Host: 127.0.0.1'];
          if (header) lines.push(`${header[0]}: ${header[1].replace(/[\r\n]/g, '')}`);
          let payload = '';
          if (body && method === 'POST') {
            payload = `code=${body[1]}&${body[1]}=1`;
            lines.push(`Content-Type: ${body[0]}`, `Content-Length: ${Buffer.byteLength(payload, 'latin1')}`);
          }
          const bytes = Buffer.from(`${lines.join('\r\n')}\r\n\r\n${payload}`, 'latin1');
          const res = await rawRequest(bytes);
          // The path the server sees ends at the query or at a space (which breaks the request line).
          const seen = `${path}${pathSuffix ?? ''}`.split(/[? ]/)[0];
          expectContractShape(`${JSON.stringify(bytes.toString('latin1').slice(0, 300))} → ${res.status} ${res.text.slice(0, 200)}`, seen, res, res.body);
        },
      ),
      { numRuns: 300, endOnFailure: true },
    );
    expect(await rowCounts()).toEqual(before);
  }, 300_000);

  // PostgreSQL refuses NUL in any text it is given: a look-up by such a value must find nothing, not fail.
  it('answers NUL in a client id, an email or a redirect URI as a client error on each OAuth entry point', async () => {
    const nul = 'a\u0000b';
    const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
    const cases: Array<[string, string, RequestInit?]> = [
      ['/oauth/authorize', `/oauth/authorize?response_type=code&client_id=${encodeURIComponent(nul)}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`],
      ['/oauth/authorize', `/oauth/authorize?response_type=code&client_id=${client.clientId}&redirect_uri=${encodeURIComponent(`${REDIRECT_URI}${nul}`)}`],
      ['/oauth/token', '/oauth/token', form({ grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT_URI, client_id: nul })],
      ['/oauth/token', '/oauth/token', form({ grant_type: 'refresh_token', refresh_token: nul }, { authorization: basicAuth(nul, nul) })],
      ['/oauth/introspect', '/oauth/introspect', form({ token: nul, client_id: nul, client_secret: nul })],
      ['/oauth/revoke', '/oauth/revoke', form({ token: nul }, { authorization: basicAuth(client.clientId, nul) })],
    ];
    for (const [path, target, init] of cases) {
      const res = await http(t.url, target, init);
      expect([target, res.status >= 400 && res.status < 500]).toEqual([target, true]);
      expectContractShape(`${target} → ${res.status} ${res.text.slice(0, 200)}`, path, res, res.body);
    }
    // The sign-in form, posted with a valid session and CSRF token.
    const browser = new BrowserSession(t.url);
    const page = await browser.get(`/oauth/authorize?response_type=code&client_id=${client.clientId}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`);
    const res = await browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: `ada${nul}@example.com`, password: nul });
    expect(res.status).toBe(400);
    expect(res.text).toContain('The email address or password is incorrect.');
  });

  it('serves /oauth/jwks the same public key set whatever the query, headers or credentials, and answers any other method 405 in its shape', async () => {
    const reference = await http(t.url, '/oauth/jwks');
    expect(reference.status).toBe(200);
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.oneof(fc.constantFrom('kid', 'alg', 'use', 'kty', 'd', 'private', 'state'), fc.string({ maxLength: 12 })), fc.oneof(nasty, fc.array(nasty, { maxLength: 2 })), { maxKeys: 3 }),
        fc.record({ authorization: fc.oneof(headerSafe.map((v) => `Bearer ${v}`), fc.constant(basicAuth(client.clientId, client.clientSecret!))), 'x-api-key': headerSafe, cookie: headerSafe.map((v) => `sp_session=${v}`) }, { requiredKeys: [] }),
        async (query, headers) => {
          const search = new URLSearchParams();
          for (const [key, value] of Object.entries(query)) for (const v of Array.isArray(value) ? value : [value]) search.append(key, v.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
          const target = `/oauth/jwks?${search}`;
          const res = await http(t.url, target, { headers });
          const where = `GET ${target.slice(0, 200)} → ${res.status}`;
          if (res.status === 200) expect([where, res.body]).toEqual([where, reference.body]);
          else {
            // Only a request line over Node's header limit is refused, before any route runs.
            expect([where, [414, 431]]).toEqual([where, expect.arrayContaining([res.status])]);
            expectContractShape(where, '/oauth/jwks', res, res.body);
          }
        },
      ),
      { numRuns: 100 },
    );
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await http(t.url, '/oauth/jwks', { method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'kid=x&d=y' });
      const where = `${method} /oauth/jwks → ${res.status} ${res.text}`;
      expect([where, res.status, res.headers.get('allow')]).toEqual([where, 405, 'GET, HEAD']);
      expectContractShape(where, '/oauth/jwks', res, res.body);
    }
  });

  it.each([
    ['/api/public/v1/industries', 'GET'],
    ['/api/public/v1/me', 'GET'],
    ['/oauth/authorize', 'GET'],
    ['/oauth/token', 'POST'],
    ['/oauth/revoke', 'POST'],
    ['/oauth/userinfo', 'GET'],
    ['/oauth/jwks', 'GET'],
    ['/oauth/sign-in', 'POST'],
    ['/nowhere', 'GET'],
  ])('answers oversized headers (431) and bodies (413) on %s in its shape', async (path, method) => {
    const huge = 'a'.repeat(20_000);
    const headers431 = await rawRequest(Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${huge}\r\n\r\n`, 'latin1'));
    expect(headers431.status).toBe(431);
    expectContractShape(`${path} with a 20 kB header`, path, headers431, headers431.body);
    const longLine = await rawRequest(Buffer.from(`${method} ${path}?q=${huge} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, 'latin1'));
    expect([400, 414, 431]).toContain(longLine.status);
    expectContractShape(`${path} with a 20 kB query`, path, longLine, longLine.body);
    if (method === 'POST') {
      for (const type of ['application/x-www-form-urlencoded', 'application/json']) {
        const body = type === 'application/json' ? JSON.stringify({ code: huge }) : `code=${huge}`;
        const res = await http(t.url, path, { method, headers: { 'content-type': type, origin: t.url }, body });
        const where = `${path} with a ${body.length}-byte ${type} body → ${res.status} ${res.text.slice(0, 200)}`;
        // The OAuth endpoints refuse any non-form body 400 before reading it; anything else is 413.
        expect([where, res.status]).toEqual([where, OAUTH_JSON.has(path) && type !== 'application/x-www-form-urlencoded' ? 400 : 413]);
        expectContractShape(where, path, res, res.body);
      }
    }
  });
});

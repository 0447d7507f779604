import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { ERROR_CODES } from '../../src/common/errors/error-codes';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * Property-based hostile input over every route the reference documents: whatever arrives in the path,
 * query, headers or body, the answer is never a 5xx, never leaks internals, is always the contract's
 * envelope (or the RFC body on the OAuth endpoints), and writes nothing.
 */
const OAUTH_JSON = new Set(['/oauth/token', '/oauth/revoke', '/oauth/introspect']);
const LEAKS = [/\n\s+at /, /node_modules/, /QueryFailedError/i, /SQLITE_/, /typeorm/i, /syntax error at or near/i, /\.ts:\d+/];
// Tables that a rejected request may legitimately touch: failed sign-ins are counted by design.
const MAY_WRITE = new Set(['sign_in_throttles', 'migrations']);

const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    "1' OR '1'='1",
    '1; DROP TABLE startups; --',
    '<script>alert(1)</script>',
    '%00',
    '\u0000',
    '..%2F..%2Fetc%2Fpasswd',
    '%',
    '_',
    '%_%',
    '-1',
    '1e309',
    '0x10',
    '9'.repeat(400),
    'ı̇İ',
    '\uD800',
    '${jndi:ldap://x}',
  ),
  fc.integer().map(String),
  fc.string({ minLength: 2000, maxLength: 9000 }),
);

function encodePart(value: string, raw: boolean): string {
  if (!raw) return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  return value.replace(/[^A-Za-z0-9%._~-]/g, (c) => encodeURIComponent(c.replace(/[\uD800-\uDFFF]/g, '\uFFFD')));
}

const headerSafe = fc.stringMatching(/^[\x20-\x7e]{0,300}$/);

describe('hostile input on every documented route', () => {
  let t: TestApp;
  let routes: Array<{ method: string; path: string; params: string[] }>;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ANONYMOUS: '1000000', RATE_LIMIT_CLIENT: '1000000', BODY_LIMIT_BYTES: '16384' });
    const doc = (await http(t.url, '/docs-json')).body;
    routes = [];
    for (const [path, operations] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(operations)) {
        routes.push({ method: method.toUpperCase(), path, params: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]) });
      }
    }
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

  it('documents the routes it fuzzes', () => {
    expect(routes.length).toBeGreaterThan(0);
  });

  it('never answers 5xx, never leaks, always answers in the contract’s shape, and writes nothing', async () => {
    const before = await rowCounts();
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(
          fc.array(nasty, { minLength: route.params.length, maxLength: route.params.length }),
          fc.boolean(),
          fc.dictionary(fc.oneof(fc.constantFrom('limit', 'offset', 'q', 'sort', 'industryId', 'client_id', 'redirect_uri', 'scope', 'state', 'response_type'), fc.string({ maxLength: 12 })), fc.oneof(nasty, fc.array(nasty, { maxLength: 3 })), { maxKeys: 4 }),
          fc.record({
            'accept-language': headerSafe,
            'x-api-key': headerSafe,
            authorization: fc.oneof(headerSafe, headerSafe.map((v) => `Bearer ${v}`), headerSafe.map((v) => `Basic ${v}`)),
            'x-request-id': headerSafe,
          }, { requiredKeys: [] }),
          fc.option(fc.record({ type: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/xml', 'multipart/form-data'), body: fc.oneof(nasty, fc.json()) })),
          async (params, rawEncoding, query, headers, body) => {
            let path = route.path;
            route.params.forEach((name, i) => (path = path.replace(`{${name}}`, encodePart(params[i], rawEncoding) || 'x')));
            const search = new URLSearchParams();
            for (const [key, value] of Object.entries(query)) {
              for (const v of Array.isArray(value) ? value : [value]) search.append(key, v.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
            }
            const qs = search.toString();
            const init: RequestInit = { method: route.method, headers: { ...headers }, signal: AbortSignal.timeout(5000) };
            if (body && !['GET', 'HEAD'].includes(route.method)) {
              (init.headers as Record<string, string>)['content-type'] = body.type;
              init.body = body.body.replace(/[\uD800-\uDFFF]/g, '\uFFFD');
            }
            const target = qs ? `${path}?${qs}` : path;
            const res = await http(t.url, target, init).catch((error: Error) => {
              throw new Error(`${route.method} ${target.slice(0, 200)} did not answer: ${error.message}`);
            });
            const where = `${route.method} ${path}?${qs} → ${res.status} ${res.text.slice(0, 300)}`;
            expect([where, res.status < 500]).toEqual([where, true]);
            for (const leak of LEAKS) expect([where, leak.test(res.text)]).toEqual([where, false]);
            const basePath = path.split('?')[0];
            if (res.status >= 400 && OAUTH_JSON.has(basePath)) {
              expect(typeof res.body?.error).toBe('string');
            } else if (res.status >= 400 && (res.headers.get('content-type') ?? '').includes('json')) {
              expect([where, ERROR_CODES.includes(res.body?.error?.code)]).toEqual([where, true]);
              expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
            }
          },
        ),
        { numRuns: 25, endOnFailure: true },
      );
    }
    expect(await rowCounts()).toEqual(before);
  }, 300_000);
});

import { request as rawRequest } from 'node:http';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';
import { ProbeModule } from './probe.module';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the request pipeline (docs/using-the-api.md, Envelopes)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ BODY_LIMIT_BYTES: '2048' }, { imports: [ProbeModule] });
  });
  afterAll(() => t.close());

  it('wraps a success in { data } and names its language', async () => {
    const res = await http(t.url, '/api/public/v1/probe?limit=5');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { limit: 5, sort: 'name' } });
    expect(res.headers.get('content-language')).toBe('tr');
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });

  it.each([
    ['tr', undefined, 'İstenen kaynak bulunamadı.'],
    ['en', 'en-GB,en;q=0.9', 'The requested resource was not found.'],
    ['tr', 'de-DE', 'İstenen kaynak bulunamadı.'],
    ['en', 'tr;q=0.5, en;q=0.8', 'The requested resource was not found.'],
  ])('answers an unknown route 404 NOT_FOUND in %s for Accept-Language %s', async (language, accept, message) => {
    const res = await http(t.url, '/api/public/v1/nothing-here', { headers: accept ? { 'accept-language': accept } : {} });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message, requestId: res.headers.get('x-request-id') } });
    expect(res.headers.get('content-language')).toBe(language);
  });

  it('answers a wrong method on a known path 405 with Allow', async () => {
    const res = await http(t.url, '/health', { method: 'DELETE', headers: { 'accept-language': 'en' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(res.body.error).toMatchObject({ code: 'METHOD_NOT_ALLOWED', message: 'This method is not allowed on this path.' });
  });

  it('reuses a sane client request id and replaces any other', async () => {
    const sane = await http(t.url, '/nope', { headers: { 'x-request-id': 'abc.DEF_1:2-3' } });
    expect(sane.headers.get('x-request-id')).toBe('abc.DEF_1:2-3');
    expect(sane.body.error.requestId).toBe('abc.DEF_1:2-3');

    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon', '%C3%BC', '']) {
      const res = await http(t.url, '/nope', { headers: { 'x-request-id': bad } });
      expect(res.headers.get('x-request-id')).toMatch(UUID);
      expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
    }
  });

  it('reports each invalid query field with VALIDATION_ERROR details, in both languages', async () => {
    const tr = await http(t.url, '/api/public/v1/probe?limit=101&sort=size');
    expect(tr.status).toBe(400);
    expect(tr.body.error.code).toBe('VALIDATION_ERROR');
    expect(tr.body.error.details).toEqual([
      { field: 'limit', message: 'En fazla 100 olmalı.' },
      { field: 'sort', message: 'Şu değerlerden biri olmalı: name, -name.' },
    ]);

    const en = await http(t.url, '/api/public/v1/probe?limit=0', { headers: { 'accept-language': 'en' } });
    expect(en.body.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'The request is invalid; see details.',
      requestId: en.headers.get('x-request-id'),
      details: [{ field: 'limit', message: 'Must be at least 1.' }],
    });
  });

  it('refuses unknown query fields and repeated scalars', async () => {
    const unknown = await http(t.url, '/api/public/v1/probe?colour=red', { headers: { 'accept-language': 'en' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([{ field: 'colour', message: 'Unknown field.' }]);

    const repeated = await http(t.url, '/api/public/v1/probe?limit=1&limit=2', { headers: { 'accept-language': 'en' } });
    expect(repeated.status).toBe(400);
    expect(repeated.body.error.details[0].field).toBe('limit');
  });

  it('answers malformed JSON 400 BAD_REQUEST', async () => {
    const res = await http(t.url, '/api/public/v1/probe', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.message).toBe('İstek çözümlenemedi.');
  });

  it('answers a body over the limit 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await http(t.url, '/api/public/v1/probe', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
      body: JSON.stringify({ name: 'x'.repeat(4096) }),
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than allowed.' });
  });

  it('answers an unsupported content type 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await http(t.url, '/api/public/v1/probe', { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<a/>' });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('validates JSON bodies like queries', async () => {
    const res = await http(t.url, '/api/public/v1/probe', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
      body: JSON.stringify({ name: 'far too long a name', extra: 1 }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'Must be at most 10 characters long.' },
        { field: 'extra', message: 'Unknown field.' },
      ]),
    );
  });

  it('answers an unexpected error 500 INTERNAL_ERROR without leaking anything', async () => {
    const res = await http(t.url, '/api/public/v1/probe/boom', { headers: { 'accept-language': 'en' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.', requestId: res.headers.get('x-request-id') },
    });
    expect(res.text).not.toMatch(/SELECT|\/srv|probe\.ts|Error:/);
  });

  it('answers oversized headers 431 HEADERS_TOO_LARGE in the envelope', async () => {
    const { status, headers, body } = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = rawRequest(`${t.url}/health`, { headers: { 'x-filler': 'a'.repeat(20_000) } }, (res) => {
        let data = '';
        res.on('data', (chunk) => (data += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: data }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(431);
    expect(headers['content-language']).toBe('tr');
    expect(JSON.parse(body)).toEqual({
      error: { code: 'HEADERS_TOO_LARGE', message: 'İstek satırı ya da başlıkları çok büyük.', requestId: headers['x-request-id'] },
    });
  });

  it('answers a path with invalid percent-encoding 400 BAD_REQUEST in the envelope', async () => {
    const res = await http(t.url, '/health/%E0%A4%A', { headers: { 'accept-language': 'en' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: { code: 'BAD_REQUEST', message: 'The request could not be parsed.', requestId: res.headers.get('x-request-id') },
    });
    expect(res.headers.get('content-language')).toBe('en');
  });

  it('sends security headers on every response', async () => {
    const res = await http(t.url, '/health');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('operations (docs/configuration-and-deployment.md)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves liveness and readiness', async () => {
    expect((await http(t.url, '/health')).body).toEqual({ status: 'ok' });
    const ready = await http(t.url, '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.info.database.status).toBe('up');
  });

  it('serves the API reference as HTML and as OpenAPI 3 JSON with the security schemes', async () => {
    const html = await http(t.url, '/docs');
    expect(html.status).toBe(200);
    expect(html.text).toContain('swagger-ui');
    // The reference's own policy (its scripts), by the route reached, however the path was spelled.
    for (const path of ['/docs', '/%64ocs']) {
      const res = await fetch(`${t.url}${path}`);
      expect([path, res.status, res.headers.get('content-security-policy')]).toEqual([path, 200, expect.stringContaining("script-src 'self' 'unsafe-inline'")]);
      await res.arrayBuffer();
    }
    const doc = await http(t.url, '/docs-json');
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.components.securitySchemes).sort()).toEqual(['api-key', 'bearer', 'dpop', 'oauth-client', 'oauth2', 'registration']);
    expect(doc.body.components.securitySchemes.oauth2.flows.authorizationCode).toMatchObject({
      authorizationUrl: `${t.url}/oauth/authorize`,
      tokenUrl: `${t.url}/oauth/token`,
      scopes: { profile: expect.any(String), 'read:startups': expect.any(String) },
    });
  });
});

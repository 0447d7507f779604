import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { ERROR_CATALOGUE } from '../../src/common/errors/error-codes';
import { http } from '../helpers/http';
import { assertConformsToOpenApi, OpenApiConformanceError } from '../helpers/openapi-conformance';
import { builtDist, ROOT } from '../helpers/processes';
import { startTestApp, TestApp } from '../helpers/test-app';

const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const COMMITTED = join(ROOT, 'docs', 'openapi.json');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function run(args: string[], cwd = ROOT) {
  return spawnSync(process.execPath, args, {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { PATH: process.env.PATH ?? '', REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
}

function operations(doc: any): Array<[string, string, any]> {
  return Object.entries<any>(doc.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m): [string, string, any] => [m, path, item[m]]));
}

/** The reference is a product too: valid, lint-clean, complete, and the same as what is committed. */
describe('the OpenAPI document', () => {
  let t: TestApp;
  let served: any;

  beforeAll(async () => {
    t = await startTestApp();
    served = (await http(t.url, '/docs-json')).body;
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3 document (swagger-parser)', async () => {
    await expect(SwaggerParser.validate(structuredClone(served))).resolves.toBeDefined();
  });

  it('is what docs/openapi.json holds, apart from the server address', () => {
    const committed = readFileSync(COMMITTED, 'utf8');
    expect(JSON.stringify(served, null, 2)).toBe(committed.trimEnd().split('http://localhost:3000').join(t.url));
  });

  it('lints clean with Redocly CLI and the committed rule set (redocly.yaml)', () => {
    const result = run([REDOCLY, 'lint', 'docs/openapi.json', '--config', 'redocly.yaml', '--format', 'stylish']);
    expect([result.status, result.stdout + result.stderr]).toEqual([0, expect.stringContaining('valid')]);
  }, 120_000);

  it('fails the lint when an operation loses its description or a property its example', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-lint-'));
    try {
      const doc = JSON.parse(readFileSync(COMMITTED, 'utf8'));
      delete doc.paths['/api/public/v1/me'].get.description;
      delete doc.components.schemas.MeDto.properties.email.example;
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
      const result = run([REDOCLY, 'lint', join(dir, 'openapi.json'), '--config', join(ROOT, 'redocly.yaml'), '--format', 'stylish']);
      expect(result.status).not.toBe(0);
      expect(result.stdout + result.stderr).toContain('operation-description');
      expect(result.stdout + result.stderr).toContain('scalar-property-missing-example');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('documents every operation with a summary, a description, one tag, its security and its parameters', () => {
    const ops = operations(served);
    expect(ops.map(([m, p]) => `${m} ${p}`).sort()).toEqual(
      [
        'get /.well-known/oauth-authorization-server',
        'get /.well-known/oauth-protected-resource/api/public/v1',
        'get /.well-known/oauth-protected-resource/mcp',
        'get /.well-known/openid-configuration',
        'get /oauth/logout',
        'get /api/public/v1/industries',
        'get /api/public/v1/industries/{id}',
        'get /api/public/v1/me',
        'get /api/public/v1/startups',
        'get /api/public/v1/startups/{id}',
        'get /health',
        'get /health/ready',
        'get /oauth/authorize',
        'get /oauth/jwks',
        'get /oauth/userinfo',
        'post /mcp',
        'post /oauth/device_authorization',
        'post /oauth/introspect',
        'post /oauth/par',
        'post /oauth/revoke',
        'post /oauth/token',
        'post /oauth/userinfo',
        'post /oauth/register',
        'get /oauth/register/{client_id}',
        'put /oauth/register/{client_id}',
        'delete /oauth/register/{client_id}',
      ].sort(),
    );
    for (const [method, path, op] of ops) {
      const where = `${method} ${path}`;
      expect([where, typeof op.summary, typeof op.description, op.tags?.length, Array.isArray(op.security)]).toEqual([where, 'string', 'string', 1, true]);
      for (const parameter of op.parameters ?? []) {
        expect([where, parameter.name, typeof parameter.description, typeof parameter.schema]).toEqual([where, parameter.name, 'string', 'object']);
      }
    }
  });

  it('lists, for each error status of the public API, every code it can carry with an example of each', () => {
    for (const [method, path, op] of operations(served).filter(([, p]) => p.startsWith('/api/'))) {
      for (const [status, response] of Object.entries<any>(op.responses)) {
        if (Number(status) < 400) continue;
        const examples = response.content['application/json'].examples;
        expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelopeDto' });
        for (const code of Object.keys(examples)) {
          expect([method, path, code, ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].status]).toEqual([method, path, code, Number(status)]);
          expect(examples[code].value.error.code).toBe(code);
          expect(response.description).toContain(`\`${code}\``);
        }
      }
      // The failures any route can have, whatever it declares.
      for (const status of ['400', '431', '500', '503']) expect(op.responses[status]).toBeDefined();
    }
  });

  it('documents the OAuth endpoints with their RFC bodies and form requests', () => {
    for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/introspect', '/oauth/par']) {
      const op = served.paths[path].post;
      expect(Object.keys(op.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
      expect(op.security).toEqual(expect.arrayContaining([{ 'oauth-client': [] }, {}]));
      for (const status of ['400', '401', '413', '429', '431', '500', '503']) {
        expect(op.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OAuthErrorDto' });
      }
      expect(op.responses['429'].headers).toHaveProperty('Retry-After');
    }
    expect(served.paths['/oauth/token'].post.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/TokenResponseDto' });
    // RFC 9126 §2.2: a pushed request is created, 201.
    expect(served.paths['/oauth/par'].post.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PushedAuthorizationResponseDto' });
    expect(served.paths['/oauth/introspect'].post.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/IntrospectionResponseDto',
    });
    // refresh_token is absent from a client_credentials answer (RFC 6749 §4.4.3).
    expect(served.components.schemas.TokenResponseDto.required).toEqual(['access_token', 'token_type', 'expires_in', 'scope']);
    expect(served.paths['/.well-known/oauth-authorization-server'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/AuthorizationServerMetadataDto',
    });
    const authorize = served.paths['/oauth/authorize'].get;
    // The pages of the flow fail as HTML pages; only Node's 431, sent before the path is known, is JSON.
    for (const status of ['200', '400', '500', '503']) expect(Object.keys(authorize.responses[status].content)).toEqual(['text/html']);
    expect(Object.keys(authorize.responses['431'].content)).toEqual(['application/json']);
    expect(authorize.responses['302'].headers).toHaveProperty('Location');
    // The browser forms of the flow are not an API.
    expect(served.paths['/oauth/sign-in']).toBeUndefined();
    expect(served.paths['/oauth/consent']).toBeUndefined();
  });

  it('makes the suites fail when a response and the reference part ways', () => {
    const me = `${t.url}/api/public/v1/me`;
    // Everything the reference says is always sent; each check below breaks one thing.
    const sent = {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': 'r-1',
      'content-language': 'tr',
      'ratelimit-limit': '1200',
      'ratelimit-remaining': '1199',
      'ratelimit-reset': '60',
      'www-authenticate': 'Bearer realm="api"',
    };
    const json = new Headers(sent);
    const without = (name: string) => new Headers(Object.fromEntries(Object.entries(sent).filter(([key]) => key !== name)));
    const ok = JSON.stringify({ data: { id: 1, name: 'Ada', email: 'ada@example.com' } });
    expect(() => assertConformsToOpenApi('GET', me, 200, json, ok)).not.toThrow();
    // A field missing, a field the reference does not know, a wrong type, an undocumented status.
    expect(() => assertConformsToOpenApi('GET', me, 200, json, JSON.stringify({ data: { id: 1, name: 'Ada' } }))).toThrow(OpenApiConformanceError);
    expect(() => assertConformsToOpenApi('GET', me, 200, json, JSON.stringify({ data: { id: 1, name: 'Ada', email: 'a@b.c', passwordHash: 'x' } }))).toThrow(
      /passwordHash/,
    );
    expect(() => assertConformsToOpenApi('GET', `${t.url}/api/public/v1/startups/7`, 200, json, JSON.stringify({ data: { id: '7' } }))).toThrow(OpenApiConformanceError);
    expect(() => assertConformsToOpenApi('GET', me, 418, json, '{}')).toThrow(/does not document/);
    // An error body outside the envelope.
    expect(() => assertConformsToOpenApi('GET', me, 401, json, JSON.stringify({ message: 'Unauthorized' }))).toThrow(OpenApiConformanceError);
    // The pages of the flow fail as HTML, the API as JSON.
    expect(() => assertConformsToOpenApi('GET', `${t.url}/oauth/authorize`, 500, json, JSON.stringify({ error: {} }))).toThrow(/documents text\/html/);
    expect(() => assertConformsToOpenApi('GET', me, 500, new Headers({ ...sent, 'content-type': 'text/html' }), '<p>oops</p>')).toThrow(/documents application\/json/);
    // Headers the reference promises: the rate-limit state on a success, the challenge on a 401, the request id.
    expect(() => assertConformsToOpenApi('GET', me, 200, without('ratelimit-remaining'), ok)).toThrow(/RateLimit-Remaining/);
    const unauthorized = JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'x', requestId: 'r-1' } });
    expect(() => assertConformsToOpenApi('GET', me, 401, json, unauthorized)).not.toThrow();
    expect(() => assertConformsToOpenApi('GET', me, 401, without('www-authenticate'), unauthorized)).toThrow(/WWW-Authenticate/);
    expect(() => assertConformsToOpenApi('GET', me, 401, without('x-request-id'), unauthorized)).toThrow(/X-Request-Id/);
    // OAuth errors are RFC 6749 bodies, not envelopes.
    expect(() =>
      assertConformsToOpenApi('POST', `${t.url}/oauth/token`, 400, json, JSON.stringify({ error: { code: 'BAD_REQUEST', message: 'x', requestId: 'r' } })),
    ).toThrow(OpenApiConformanceError);
  });
});

/** The committed types (client/openapi.d.ts) are generated from this document; a stale copy fails. */
describe('the generated client types', () => {
  const script = join(ROOT, 'scripts', 'openapi.js');

  it('match the document the built app serves (`npm run openapi` regenerates them)', () => {
    const result = run([script, '--check', '--dist', builtDist()]);
    expect([result.status, result.stderr]).toEqual([0, '']);
  }, 120_000);

  it('are reported, by file, when they drift from the document', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-types-'));
    try {
      cpSync(join(ROOT, 'docs', 'openapi.json'), join(dir, 'docs', 'openapi.json'));
      const types = readFileSync(join(ROOT, 'client', 'openapi.d.ts'), 'utf8');
      cpSync(join(ROOT, 'client', 'openapi.d.ts'), join(dir, 'client', 'openapi.d.ts'));
      writeFileSync(join(dir, 'client', 'openapi.d.ts'), types.replace('email: string;', 'email?: string;'));
      const result = run([script, '--check', '--out', dir, '--dist', builtDist()]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(join('client', 'openapi.d.ts'));
      expect(result.stderr).not.toContain(join('docs', 'openapi.json'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

import { ArgumentsHost, BadRequestException, NotFoundException } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { AppError } from '../errors/app-error';
import { ErrorFormat } from '../errors/error-format';
import { OAUTH_JSON_ERRORS, OAuthError } from '../errors/oauth-error';
import { RouteTable } from './route-table';

/** A page format as a feature would declare it; the filter must not know what it writes. */
const PAGE: ErrorFormat = {
  send: (reply, failure, { language }) => void reply.status(499).headers({ 'content-type': 'text/html' }).send(`<p>${failure.code} ${language}</p>`),
};

function routeTable(): RouteTable {
  const table = new RouteTable();
  table.add(['GET', 'HEAD'], '/api/public/v1/things');
  table.add('POST', '/protocol/token');
  table.add(['GET', 'HEAD'], '/pages/consent');
  table.useErrorFormats(
    new Map([
      ['POST /protocol/token', OAUTH_JSON_ERRORS],
      ['GET /pages/consent', PAGE],
    ]),
  );
  return table;
}

function harness(url = '/api/public/v1/things', headers: Record<string, string> = {}, routeUrl?: string, method = 'GET') {
  const sent: { status?: number; headers: Record<string, string>; body?: string } = { headers: {} };
  const reply = {
    sent: false,
    status(code: number) {
      sent.status = code;
      return this;
    },
    header(name: string, value: string) {
      sent.headers[name.toLowerCase()] = value;
      return this;
    },
    headers(values: Record<string, string>) {
      for (const [k, v] of Object.entries(values)) sent.headers[k.toLowerCase()] = v;
      return this;
    },
    send(body: string) {
      sent.body = body;
      return this;
    },
  };
  const request = { method, url, headers, raw: { headers: { 'x-request-id': 'rid-1' } }, routeOptions: { url: routeUrl } };
  const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ArgumentsHost;
  return { host, sent, json: () => JSON.parse(sent.body!) };
}

describe('AllExceptionsFilter', () => {
  let sut: AllExceptionsFilter;
  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ providers: [AllExceptionsFilter, { provide: RouteTable, useValue: routeTable() }] }).compile();
    sut = moduleRef.get(AllExceptionsFilter);
    jest.spyOn((sut as any).logger, 'error').mockImplementation(() => undefined);
  });

  it('renders an AppError as the envelope, with its headers', () => {
    const h = harness('/x', { 'accept-language': 'en' }, '/x');
    sut.catch(new AppError('INSUFFICIENT_SCOPE', { headers: { 'WWW-Authenticate': 'Bearer realm="api", error="insufficient_scope", scope="profile"' } }), h.host);
    expect(h.sent.status).toBe(403);
    expect(h.sent.headers['www-authenticate']).toBe('Bearer realm="api", error="insufficient_scope", scope="profile"');
    expect(h.json()).toEqual({ error: { code: 'INSUFFICIENT_SCOPE', message: 'The access token lacks the scope this operation needs.', requestId: 'rid-1' } });
  });

  it('adds the RFC 6750 challenge to a bare UNAUTHORIZED', () => {
    const h = harness('/x', {}, '/x');
    sut.catch(new AppError('UNAUTHORIZED'), h.host);
    expect(h.sent.headers['www-authenticate']).toBe('Bearer realm="api"');
    expect(h.sent.headers['content-language']).toBe('tr');
  });

  it('answers 405 with Allow for a known path and the wrong method', () => {
    const h = harness('/api/public/v1/things?x=1');
    sut.catch(new NotFoundException(), h.host);
    expect(h.sent.status).toBe(405);
    expect(h.sent.headers.allow).toBe('GET, HEAD');
  });

  it('answers 404 for an unknown path', () => {
    const h = harness('/nowhere');
    sut.catch(new NotFoundException(), h.host);
    expect(h.sent.status).toBe(404);
    expect(h.json().error.code).toBe('NOT_FOUND');
  });

  it('maps Fastify body errors and database outages', () => {
    const tooLarge = harness('/x', {}, '/x');
    sut.catch(Object.assign(new Error('Request body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }), tooLarge.host);
    expect(tooLarge.json().error.code).toBe('PAYLOAD_TOO_LARGE');

    const down = harness('/x', {}, '/x');
    sut.catch(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), down.host);
    expect(down.sent.status).toBe(503);
    expect(down.json().error.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('hides the details of an unexpected error', () => {
    const h = harness('/x', {}, '/x');
    sut.catch(new TypeError("Cannot read properties of undefined (reading 'id') at /srv/app/users.ts:10"), h.host);
    expect(h.sent.status).toBe(500);
    expect(h.sent.body).not.toContain('users.ts');
    expect(h.json().error.code).toBe('INTERNAL_ERROR');
  });

  it('lets an OAuthError render its RFC 6749 body', () => {
    const h = harness('/protocol/token', {}, '/protocol/token', 'POST');
    sut.catch(new OAuthError('invalid_grant', 'The code has expired'), h.host);
    expect(h.sent.status).toBe(400);
    expect(h.json()).toEqual({ error: 'invalid_grant', error_description: 'The code has expired' });
    expect(h.sent.headers['cache-control']).toBe('no-store');
  });

  it('writes any other failure of a route that declares RFC 6749 errors as an RFC body, never the envelope', () => {
    const h = harness('/protocol/token', { 'accept-language': 'tr' }, '/protocol/token', 'POST');
    sut.catch(new BadRequestException(), h.host);
    expect(h.json()).toEqual({ error: 'invalid_request', error_description: 'The request could not be parsed.' });

    const crash = harness('/protocol/token', {}, '/protocol/token', 'POST');
    sut.catch(new Error('boom'), crash.host);
    expect(crash.sent.status).toBe(500);
    expect(crash.json().error).toBe('server_error');

    const down = harness('/protocol/token', {}, '/protocol/token', 'POST');
    sut.catch(Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' }), down.host);
    expect([down.sent.status, down.sent.headers['retry-after'], down.json().error]).toEqual([503, '5', 'temporarily_unavailable']);
  });

  it('keeps the route’s format for failures raised before any handler: a wrong method is a 405 RFC body', () => {
    const h = harness('/protocol/token', {}, undefined, 'GET');
    sut.catch(new NotFoundException(), h.host);
    expect([h.sent.status, h.sent.headers.allow, h.json()]).toEqual([405, 'POST', { error: 'invalid_request', error_description: 'This method is not allowed on this path.' }]);
  });

  it('hands a page route’s failure to the format it declares, in the negotiated language', () => {
    const h = harness('/pages/consent', { 'accept-language': 'en' }, '/pages/consent');
    sut.catch(new AppError('NOT_FOUND'), h.host);
    expect([h.sent.status, h.sent.body, h.sent.headers['x-request-id']]).toEqual([499, '<p>NOT_FOUND en</p>', 'rid-1']);
    // HEAD is answered like GET.
    const head = harness('/pages/consent', {}, '/pages/consent', 'HEAD');
    sut.catch(new AppError('NOT_FOUND'), head.host);
    expect(head.sent.body).toBe('<p>NOT_FOUND tr</p>');
  });
});

import { ArgumentsHost, BadRequestException, NotFoundException } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { AllExceptionsFilter, ROUTE_TABLE } from './all-exceptions.filter';
import { AppError } from './app-error';
import { OAuthError } from './oauth-error';
import { RouteTable } from '../http/route-table';

function harness(url = '/api/public/v1/things', headers: Record<string, string> = {}, routeUrl?: string) {
  const sent: { status?: number; headers: Record<string, string>; body?: string } = { headers: {} };
  const table = new RouteTable();
  table.add(['GET', 'HEAD'], '/api/public/v1/things');
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
  const request = {
    url,
    headers,
    raw: { headers: { 'x-request-id': 'rid-1' } },
    routeOptions: { url: routeUrl },
    server: { [ROUTE_TABLE]: table },
  };
  const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ArgumentsHost;
  return { host, sent, json: () => JSON.parse(sent.body!) };
}

describe('AllExceptionsFilter', () => {
  const sut = new AllExceptionsFilter();
  beforeAll(() => jest.spyOn((sut as any).logger, 'error').mockImplementation(() => undefined));

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

  it('maps the throttler, Fastify body errors and database outages', () => {
    const limited = harness('/x', {}, '/x');
    sut.catch(new ThrottlerException(), limited.host);
    expect(limited.sent.status).toBe(429);

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
    const h = harness('/oauth/token', {}, '/oauth/token');
    sut.catch(new OAuthError('invalid_grant', 'The code has expired'), h.host);
    expect(h.sent.status).toBe(400);
    expect(h.json()).toEqual({ error: 'invalid_grant', error_description: 'The code has expired' });
    expect(h.sent.headers['cache-control']).toBe('no-store');
  });

  it('turns any other failure on an OAuth endpoint into an RFC body, never the envelope', () => {
    const h = harness('/oauth/token', { 'accept-language': 'tr' }, '/oauth/token');
    sut.catch(new BadRequestException(), h.host);
    expect(h.json()).toEqual({ error: 'invalid_request', error_description: 'The request could not be parsed.' });

    const crash = harness('/oauth/introspect', {}, '/oauth/introspect');
    sut.catch(new Error('boom'), crash.host);
    expect(crash.sent.status).toBe(500);
    expect(crash.json().error).toBe('server_error');
  });
});

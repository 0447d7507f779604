import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestLanguage } from '../i18n/language';
import { requestIdOf } from './request-id';
import { RouteTable } from './route-table';
import { ERROR_CATALOGUE, ErrorCode } from '../errors/error-codes';
import { errorEnvelope } from '../errors/error-envelope';
import { ENVELOPE_ERRORS } from '../errors/error-format';
import { DEFAULT_LANGUAGE } from '../i18n/language';

/**
 * Requests that Node's HTTP parser rejects before Fastify or Nest see them (a request line or headers
 * over the limit, a malformed request). The headers were never parsed, so the answer is in the default
 * language with a fresh request id, in the same envelope as everything else (docs/using-the-api.md, Envelopes), or in the
 * JSON of the route's own error format when it has one (the OAuth endpoints' RFC 6749 bodies).
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket, routes?: RouteTable): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  if (error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.destroy();
    return;
  }
  const code: ErrorCode = error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'BAD_REQUEST';
  const requestId = randomUUID();
  const { status } = ERROR_CATALOGUE[code];
  const reason = code === 'HEADERS_TOO_LARGE' ? 'Request Header Fields Too Large' : 'Bad Request';
  // The request line is usually in the raw bytes Node kept: it names the route, hence the format.
  const requestLine = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 256).toString('latin1') ?? '';
  const [, method = 'GET', path = ''] = /^([A-Z]+) ([^ ?]*)/.exec(requestLine) ?? [];
  const format = routes?.errorFormatOf(method, undefined, path);
  const body = JSON.stringify(format?.unparsedBody ? format.unparsedBody(code) : errorEnvelope(code, DEFAULT_LANGUAGE, requestId));
  socket.end(
    [
      `HTTP/1.1 ${status} ${reason}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Language: ${DEFAULT_LANGUAGE}`,
      `X-Request-Id: ${requestId}`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}

/**
 * Whether the path of a request-target has a `#`: a fragment is never sent (RFC 9110 §4.2.4, RFC 3986
 * §3.5), and the router would otherwise ignore it and everything after it, serving `/oauth/token#x`
 * as `/oauth/token`. Such a request is malformed.
 */
export function hasFragmentInPath(url: string): boolean {
  const hash = url.indexOf('#');
  if (hash === -1) return false;
  const query = url.indexOf('?');
  return query === -1 || hash < query;
}

/**
 * Errors Fastify's router raises itself, before any hook or handler (a path whose percent-encoding is
 * invalid, a path parameter longer than the router takes): answered 400 BAD_REQUEST in the client's
 * language, in the error format of the routes at that path (a page's path gets the page error; the
 * envelope for any other).
 */
export function handleFrameworkError(_error: Error, request: FastifyRequest, reply: FastifyReply, routes?: RouteTable): void {
  const language = requestLanguage(request);
  const requestId = requestIdOf(request.raw);
  const format = routes?.errorFormatOf(request.method, undefined, request.url.split('?')[0]) ?? ENVELOPE_ERRORS;
  reply.header('x-request-id', requestId);
  format.send(reply, { code: 'BAD_REQUEST', headers: {} }, { language, requestId });
}

import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { negotiateLanguage } from '../i18n/language';
import { requestIdOf } from './request-id';
import { ERROR_CATALOGUE, ErrorCode } from '../errors/error-codes';
import { isOAuthJsonPath } from '../errors/oauth-error';
import { ERROR_RESPONSE_HEADERS, errorEnvelope } from '../errors/error-envelope';
import { DEFAULT_LANGUAGE } from '../i18n/language';

/**
 * Requests that Node's HTTP parser rejects before Fastify or Nest see them (a request line or headers
 * over the limit, a malformed request). The headers were never parsed, so the answer is in the default
 * language with a fresh request id, in the same envelope as everything else (CONTRACT §1).
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
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
  // The request line is usually in the raw bytes Node kept: the OAuth endpoints answer in RFC 6749 form.
  const requestLine = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 256).toString('latin1') ?? '';
  const path = /^[A-Z]+ ([^ ?]*)/.exec(requestLine)?.[1] ?? '';
  const body = JSON.stringify(
    isOAuthJsonPath(path)
      ? { error: 'invalid_request', error_description: ERROR_CATALOGUE[code].en }
      : errorEnvelope(code, DEFAULT_LANGUAGE, requestId),
  );
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
 * Errors Fastify's router raises itself, before any hook or handler (a path whose percent-encoding is
 * invalid): answered 400 BAD_REQUEST in the envelope, in the client's language.
 */
export function handleFrameworkError(_error: Error, request: FastifyRequest, reply: FastifyReply): void {
  const language = negotiateLanguage(request.headers['accept-language']);
  const requestId = requestIdOf(request.raw);
  const body = isOAuthJsonPath(request.url.split('?')[0])
    ? { error: 'invalid_request', error_description: 'The request could not be parsed.' }
    : errorEnvelope('BAD_REQUEST', language, requestId);
  reply
    .status(400)
    .headers({ ...ERROR_RESPONSE_HEADERS, 'content-language': language, 'x-request-id': requestId })
    .send(JSON.stringify(body));
}

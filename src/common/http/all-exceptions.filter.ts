import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestLanguage } from '../i18n/language';
import { RouteTable } from './route-table';
import { requestIdOf } from './request-id';
import { AppError } from '../errors/app-error';
import { isDatabaseUnavailable } from '../errors/database-unavailable';
import { codeForStatus, ErrorCode } from '../errors/error-codes';
import { ENVELOPE_ERRORS, Failure } from '../errors/error-format';
import { RenderedError } from '../errors/rendered-error';

interface Mapped extends Failure {
  unexpected?: boolean;
}

/**
 * The one place where a failure becomes a response. Everything that goes wrong in the pipeline lands
 * here: application errors, validation failures, Nest and Fastify errors (bad JSON, body too large,
 * unsupported media type, unknown routes), rate limits and unexpected exceptions. Each is classified
 * once (a catalogue code and its headers) and written in the error format of the route it was sent to
 * (`@SkipEnvelope({ errors })`): the `{error:{code,message,requestId}}` envelope of docs/using-the-api.md, Envelopes unless
 * the route declares another (RFC 6749 bodies, HTML pages). Nothing internal ever leaks.
 */
@Catch()
@Injectable()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  constructor(private readonly routes: RouteTable) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (reply.sent) return;

    const requestId = requestIdOf(request.raw);
    const language = requestLanguage(request);
    const path = request.url.split('?')[0];
    reply.header('x-request-id', requestId);

    if (exception instanceof RenderedError) {
      exception.render(reply, { request, language, requestId });
      return;
    }

    const mapped = this.map(exception, request, path);
    if (mapped.unexpected) {
      this.logger.error({ err: exception, requestId }, 'Unexpected error');
    }
    const format = this.routes.errorFormatOf(request.method, request.routeOptions?.url, path) ?? ENVELOPE_ERRORS;
    format.send(reply, { code: mapped.code, headers: mapped.headers, details: mapped.details }, { language, requestId });
  }

  private map(exception: unknown, request: FastifyRequest, path: string): Mapped {
    if (exception instanceof AppError) {
      return { code: exception.code, details: exception.details, headers: withChallenge(exception.code, exception.headers) };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404 && !request.routeOptions?.url) {
        // No route matched. A known path with another method is a 405 (RFC 9110 §15.5.6).
        const allowed = this.routes.allowedMethods(path);
        if (allowed.length > 0) return { code: 'METHOD_NOT_ALLOWED', headers: { allow: allowed.join(', ') } };
        return { code: 'NOT_FOUND', headers: {} };
      }
      const code = codeForStatus(status);
      return { code, headers: withChallenge(code, {}), unexpected: status >= 500 && status !== 503 };
    }
    if (isDatabaseUnavailable(exception)) {
      return { code: 'SERVICE_UNAVAILABLE', headers: { 'retry-after': '5' } };
    }
    // Errors raised by Fastify itself (body parsing, content type, content length) carry a 4xx status.
    const status = (exception as { statusCode?: unknown })?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return { code: codeForStatus(status), headers: {} };
    }
    return { code: 'INTERNAL_ERROR', headers: {}, unexpected: true };
  }
}

/** RFC 6750 §3 / RFC 9110 §11.6.1: every 401 names the scheme that would work. */
function withChallenge(code: ErrorCode, headers: Record<string, string>): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) lower[key.toLowerCase()] = value;
  if (code === 'UNAUTHORIZED' && !lower['www-authenticate']) lower['www-authenticate'] = 'Bearer realm="api"';
  return lower;
}

import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { negotiateLanguage } from '../i18n/language';
import { RouteTable } from '../http/route-table';
import { requestIdOf } from '../http/request-id';
import { AppError } from './app-error';
import { isDatabaseUnavailable } from './database-unavailable';
import { codeForStatus, ERROR_CATALOGUE, ErrorCode } from './error-codes';
import { ERROR_RESPONSE_HEADERS, errorEnvelope } from './error-envelope';
import { sendPage } from '../../oauth/pages/html';
import { failurePage } from '../../oauth/pages/pages';
import { isOAuthJsonPath, isOAuthPagePath, OAuthError } from './oauth-error';
import { RenderedError } from './rendered-error';

export const ROUTE_TABLE = Symbol('routeTable');

interface Mapped {
  code: ErrorCode;
  details?: AppError['details'];
  headers: Record<string, string>;
  unexpected?: boolean;
}

/**
 * The one place where a failure becomes a response. Everything that goes wrong in the pipeline lands
 * here: application errors, validation failures, Nest and Fastify errors (bad JSON, body too large,
 * unsupported media type, unknown routes), rate limits and unexpected exceptions. The public API gets
 * the `{error:{code,message,requestId}}` envelope of CONTRACT §1; the client-facing OAuth endpoints
 * get RFC 6749 bodies; the pages of the authorization flow get an HTML page; nothing internal ever leaks.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (reply.sent) return;

    const requestId = requestIdOf(request.raw);
    const language = negotiateLanguage(request.headers['accept-language']);
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

    if (isOAuthJsonPath(path)) {
      this.asOAuthError(mapped).render(reply);
      return;
    }
    if (isOAuthPagePath(path)) {
      // A person in a browser reads these: an HTML page, never the API's JSON.
      sendPage(reply, failurePage(language, ERROR_CATALOGUE[mapped.code].status, mapped.headers));
      return;
    }

    reply
      .status(ERROR_CATALOGUE[mapped.code].status)
      .headers({ ...mapped.headers, ...ERROR_RESPONSE_HEADERS, 'content-language': language })
      .send(JSON.stringify(errorEnvelope(mapped.code, language, requestId, mapped.details)));
  }

  private map(exception: unknown, request: FastifyRequest, path: string): Mapped {
    if (exception instanceof AppError) {
      return { code: exception.code, details: exception.details, headers: withChallenge(exception.code, exception.headers) };
    }
    if (exception instanceof ThrottlerException) {
      return { code: 'RATE_LIMITED', headers: {} };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404 && !request.routeOptions?.url) {
        // No route matched. A known path with another method is a 405 (RFC 9110 §15.5.6).
        const table = (request.server as unknown as Record<symbol, RouteTable | undefined>)[ROUTE_TABLE];
        const allowed = table?.allowedMethods(path) ?? [];
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

  private asOAuthError(mapped: Mapped): OAuthError {
    const status = ERROR_CATALOGUE[mapped.code].status;
    // RFC 6749 §5.2: error_description is limited to printable ASCII, so it is always English.
    const description = ERROR_CATALOGUE[mapped.code].en;
    if (mapped.code === 'SERVICE_UNAVAILABLE') return new OAuthError('temporarily_unavailable', description, mapped.headers);
    if (status >= 500) return new OAuthError('server_error', description);
    const headers = { ...mapped.headers };
    delete headers['www-authenticate'];
    return new OAuthError('invalid_request', description, headers, status);
  }
}

/** RFC 6750 §3 / RFC 9110 §11.6.1: every 401 names the scheme that would work. */
function withChallenge(code: ErrorCode, headers: Record<string, string>): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) lower[key.toLowerCase()] = value;
  if (code === 'UNAUTHORIZED' && !lower['www-authenticate']) lower['www-authenticate'] = 'Bearer realm="api"';
  if (code === 'INVALID_API_KEY' && !lower['www-authenticate']) lower['www-authenticate'] = 'ApiKey realm="api"';
  return lower;
}

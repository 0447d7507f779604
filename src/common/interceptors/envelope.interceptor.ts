import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { Paginated } from '../envelope/paginated';
import { SerializedEnvelope } from '../envelope/serialized-envelope';
import { SKIP_ENVELOPE, SkipEnvelopeOptions } from '../envelope/skip-envelope.decorator';
import { requestLanguage } from '../i18n/language';

/** A handler's result as the body of docs/using-the-api.md, Envelopes: `{ data }`, `{ data, meta }` for a page. */
export function envelopeOf(result: unknown): unknown {
  if (result instanceof SerializedEnvelope) return result.json;
  if (result instanceof Paginated) return { data: result.items, meta: { total: result.total, limit: result.limit, offset: result.offset } };
  return { data: result };
}

// One operator for every request: it closes over nothing, so nothing is built per request but the pipe.
const ENVELOPE = map(envelopeOf);

/**
 * The success envelope of docs/using-the-api.md, Envelopes, registered as APP_INTERCEPTOR: every handler's result becomes
 * `{ data }` (`{ data, meta }` for a `Paginated`), answered as JSON in the negotiated language, unless the
 * route or its controller is marked `@SkipEnvelope()` (OAuth, health, HTML pages answer their own
 * protocol).
 *
 * Cheap on every request: whether a handler is enveloped is read from its metadata once and kept; the
 * headers are set before the handler runs, so the mapping is one synchronous function shared by all
 * requests. A failure replaces them: the exception filter writes its own.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  private readonly enveloped = new WeakMap<object, boolean>();

  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || !this.isEnveloped(context)) return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    http
      .getResponse<FastifyReply>()
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-language', requestLanguage(request))
      .header('vary', 'Accept-Language');
    return next.handle().pipe(ENVELOPE);
  }

  private isEnveloped(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let enveloped = this.enveloped.get(handler);
    if (enveloped === undefined) {
      enveloped = this.reflector.getAllAndOverride<SkipEnvelopeOptions | undefined>(SKIP_ENVELOPE, [handler, context.getClass()]) === undefined;
      this.enveloped.set(handler, enveloped);
    }
    return enveloped;
  }
}

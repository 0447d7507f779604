import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { negotiateLanguage } from '../i18n/language';
import { Paginated } from './paginated';
import { SerializedEnvelope } from './serialized-envelope';
import { SKIP_ENVELOPE } from './skip-envelope.decorator';

/** Wraps every public-API result in `{ data }` (and `meta` for pages), CONTRACT §1. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  private readonly skipCache = new WeakMap<object, boolean>();

  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || this.skips(context)) return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    reply.header('content-language', negotiateLanguage(request.headers['accept-language']));
    reply.header('vary', 'Accept-Language');
    return next.handle().pipe(
      map((result) => {
        if (result instanceof SerializedEnvelope) {
          reply.header('content-type', 'application/json; charset=utf-8');
          return result.json;
        }
        return result instanceof Paginated
          ? { data: result.items, meta: { total: result.total, limit: result.limit, offset: result.offset } }
          : { data: result };
      }),
    );
  }

  // Route metadata never changes after start: read it once per handler.
  private skips(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let skip = this.skipCache.get(handler);
    if (skip === undefined) {
      skip = this.reflector.getAllAndOverride<boolean>(SKIP_ENVELOPE, [handler, context.getClass()]) ?? false;
      this.skipCache.set(handler, skip);
    }
    return skip;
  }
}

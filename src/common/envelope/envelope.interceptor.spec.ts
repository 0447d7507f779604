import { CallHandler, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, of } from 'rxjs';
import { EnvelopeInterceptor } from './envelope.interceptor';
import { Paginated } from './paginated';
import { SkipEnvelope } from './skip-envelope.decorator';

class Routes {
  plain() {}
  @SkipEnvelope()
  raw() {}
}

function context(handler: () => void, headers: Record<string, string> = {}) {
  const replyHeaders: Record<string, string> = {};
  const ctx = {
    getType: () => 'http',
    getHandler: () => handler,
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => ({ headers }), getResponse: () => ({ header: (k: string, v: string) => (replyHeaders[k] = v) }) }),
  } as unknown as ExecutionContext;
  return { ctx, replyHeaders };
}

const returning = (value: unknown): CallHandler => ({ handle: () => of(value) });

describe('EnvelopeInterceptor', () => {
  const sut = new EnvelopeInterceptor(new Reflector());

  it('wraps a result in { data } and names the negotiated language', async () => {
    const { ctx, replyHeaders } = context(Routes.prototype.plain, { 'accept-language': 'en' });
    expect(await lastValueFrom(sut.intercept(ctx, returning({ id: 1 })))).toEqual({ data: { id: 1 } });
    expect(replyHeaders['content-language']).toBe('en');
  });

  it('answers a page as { data, meta }', async () => {
    const { ctx } = context(Routes.prototype.plain);
    const page = new Paginated([{ id: 1 }], 41, 20, 40);
    expect(await lastValueFrom(sut.intercept(ctx, returning(page)))).toEqual({ data: [{ id: 1 }], meta: { total: 41, limit: 20, offset: 40 } });
  });

  it('leaves routes marked @SkipEnvelope() alone', async () => {
    const { ctx } = context(Routes.prototype.raw);
    expect(await lastValueFrom(sut.intercept(ctx, returning({ active: false })))).toEqual({ active: false });
  });
});

import { CallHandler, Controller, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { Test } from '@nestjs/testing';
import { lastValueFrom, of } from 'rxjs';
import { Paginated } from '../envelope/paginated';
import { SerializedEnvelope } from '../envelope/serialized-envelope';
import { SkipEnvelope } from '../envelope/skip-envelope.decorator';
import { EnvelopeInterceptor } from './envelope.interceptor';

@Controller('api/things')
class ThingsController {
  @Get()
  list() {}
  @Get('raw')
  @SkipEnvelope()
  raw() {}
}

@Controller('oauth')
@SkipEnvelope()
class ProtocolController {
  @Get('token')
  token() {}
}

function call(controller: object, handler: () => void, result: unknown, headers: Record<string, string> = {}) {
  const sent: Record<string, string> = {};
  const reply = { header: (name: string, value: string) => ((sent[name] = value), reply) };
  const context = new ExecutionContextHost([{ headers }, reply], controller.constructor as never, handler);
  context.setType('http');
  const next: CallHandler = { handle: () => of(result) };
  return { sent, body: (sut: EnvelopeInterceptor) => lastValueFrom(sut.intercept(context, next)) };
}

describe('EnvelopeInterceptor', () => {
  const things = new ThingsController();
  const protocol = new ProtocolController();
  let sut: EnvelopeInterceptor;
  let reflector: Reflector;

  beforeEach(async () => {
    // The real Reflector, watched: the interceptor may consult it once per handler, not per request.
    reflector = new Reflector();
    jest.spyOn(reflector, 'getAllAndOverride');
    const moduleRef = await Test.createTestingModule({ providers: [EnvelopeInterceptor, Reflector] })
      .overrideProvider(Reflector)
      .useValue(reflector)
      .compile();
    sut = moduleRef.get(EnvelopeInterceptor);
  });

  it('wraps a result in { data }, as JSON, and names the negotiated language', async () => {
    const r = call(things, things.list, { id: 1 }, { 'accept-language': 'en-GB,en;q=0.9' });
    expect(await r.body(sut)).toEqual({ data: { id: 1 } });
    expect(r.sent).toEqual({ 'content-type': 'application/json; charset=utf-8', 'content-language': 'en', vary: 'Accept-Language' });
  });

  it('answers a page as { data, meta }', async () => {
    const page = new Paginated([{ id: 1 }], 41, 20, 40);
    expect(await call(things, things.list, page).body(sut)).toEqual({ data: [{ id: 1 }], meta: { total: 41, limit: 20, offset: 40 } });
  });

  it('sends a serialized envelope as it is, in Turkish by default', async () => {
    const r = call(things, things.list, SerializedEnvelope.of([1]));
    expect(await r.body(sut)).toBe('{"data":[1]}');
    expect(r.sent['content-language']).toBe('tr');
  });

  it('leaves routes marked @SkipEnvelope(), on the method or the controller, alone: no header, no wrapping', async () => {
    const raw = call(things, things.raw, { active: false });
    expect(await raw.body(sut)).toEqual({ active: false });
    expect(raw.sent).toEqual({});
    expect(await call(protocol, protocol.token, { access_token: 'x' }).body(sut)).toEqual({ access_token: 'x' });
  });

  it('reads a handler’s metadata once, whatever the number of requests', async () => {
    for (let i = 0; i < 5; i++) {
      await call(things, things.list, i).body(sut);
      await call(protocol, protocol.token, i).body(sut);
    }
    expect(reflector.getAllAndOverride).toHaveBeenCalledTimes(2);
  });
});

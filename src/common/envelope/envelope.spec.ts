import { Controller, Get, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { EnvelopedRoutes } from './envelope';
import { Paginated } from './paginated';
import { SerializedEnvelope } from './serialized-envelope';
import { SkipEnvelope } from './skip-envelope.decorator';

@Controller('api/things')
class ThingsController {
  @Get()
  list() {}
  @Get(':id')
  one() {}
  @Post()
  @SkipEnvelope()
  raw() {}
}

@Controller('oauth')
@SkipEnvelope()
class ProtocolController {
  @Get('token')
  token() {}
}

@Module({ controllers: [ThingsController, ProtocolController] })
class ThingsModule {}

function reply(method: string, url: string, headers: Record<string, string> = {}) {
  const sent: Record<string, string> = {};
  const r = { request: { method, headers, routeOptions: { url } }, header: (k: string, v: string) => ((sent[k] = v), r) };
  return { reply: r as unknown as FastifyReply, sent };
}

describe('EnvelopedRoutes', () => {
  let sut: EnvelopedRoutes;
  beforeAll(async () => {
    const context = await NestFactory.createApplicationContext(ThingsModule, { logger: false });
    sut = EnvelopedRoutes.of(context);
    await context.close();
  });

  it('wraps a result in { data } and names the negotiated language', () => {
    const { reply: r, sent } = reply('GET', '/api/things/:id', { 'accept-language': 'en' });
    expect(sut.wrap(r, { id: 1 })).toEqual({ data: { id: 1 } });
    expect(sent).toEqual({ 'content-language': 'en', vary: 'Accept-Language' });
  });

  it('answers a page as { data, meta }, and HEAD like GET', () => {
    const page = new Paginated([{ id: 1 }], 41, 20, 40);
    expect(sut.wrap(reply('HEAD', '/api/things').reply, page)).toEqual({ data: [{ id: 1 }], meta: { total: 41, limit: 20, offset: 40 } });
  });

  it('sends a serialized envelope as it is, as JSON', () => {
    const { reply: r, sent } = reply('GET', '/api/things');
    expect(sut.wrap(r, SerializedEnvelope.of([1]))).toBe('{"data":[1]}');
    expect(sent['content-type']).toBe('application/json; charset=utf-8');
  });

  it('leaves routes marked @SkipEnvelope(), on the method or the controller, and unknown routes alone', () => {
    expect(sut.wrap(reply('POST', '/api/things').reply, { active: false })).toEqual({ active: false });
    expect(sut.wrap(reply('GET', '/oauth/token').reply, { access_token: 'x' })).toEqual({ access_token: 'x' });
    expect(sut.wrap(reply('GET', '/nowhere').reply, 'text')).toBe('text');
  });
});

import { Controller, Get, Module, Post } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { SkipEnvelope } from '../envelope/skip-envelope.decorator';
import { ErrorFormat } from '../errors/error-format';
import { controllerRoutes, errorFormatsOf } from './controller-routes';

const PROTOCOL: ErrorFormat = { send: () => undefined };
const PAGE: ErrorFormat = { send: () => undefined };

@Controller('api/things')
class ThingsController {
  @Get()
  list() {}
  @Post(':id/raw')
  @SkipEnvelope()
  raw() {}
}

@Controller('/protocol/')
@SkipEnvelope({ errors: PROTOCOL })
class ProtocolController {
  @Post('token')
  token() {}
  @Get(['consent', 'sign-in'])
  @SkipEnvelope({ errors: PAGE })
  page() {}
}

@Module({ controllers: [ThingsController, ProtocolController] })
class ThingsModule {}

describe('controller routes', () => {
  it('lists every route as Fastify names it', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [ThingsModule] }).compile();
    expect(controllerRoutes(moduleRef).map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'GET /api/things',
      'GET /protocol/consent',
      'GET /protocol/sign-in',
      'POST /api/things/:id/raw',
      'POST /protocol/token',
    ]);
  });

  it('reads each route’s error format from @SkipEnvelope on the handler, else on the controller', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [ThingsModule] }).compile();
    expect(errorFormatsOf(moduleRef)).toEqual(
      new Map([
        ['POST /protocol/token', PROTOCOL],
        ['GET /protocol/consent', PAGE],
        ['GET /protocol/sign-in', PAGE],
      ]),
    );
  });
});

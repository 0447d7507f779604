import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../auth/decorators/public.decorator';
import { SkipEnvelope } from '../common/envelope/skip-envelope.decorator';
import { ShutdownState } from '../common/http/shutdown-state';

@ApiTags('health')
@Controller('health')
@SkipEnvelope()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly shutdown: ShutdownState,
  ) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness', description: 'Answers 200 while the process runs; it does not touch the database.' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  @HealthCheck()
  @ApiOperation({
    summary: 'Readiness',
    description: 'Answers 200 when the database answers a ping, 503 `SERVICE_UNAVAILABLE` otherwise or while shutting down.',
  })
  @ApiOkResponse({ schema: { example: { status: 'ok', info: { database: { status: 'up' } }, error: {}, details: { database: { status: 'up' } } } } })
  @ApiServiceUnavailableResponse({ description: 'The database is unreachable or the instance is draining.' })
  ready() {
    this.shutdown.assertAccepting();
    return this.health.check([() => this.database.pingCheck('database', { timeout: 2000 })]);
  }
}

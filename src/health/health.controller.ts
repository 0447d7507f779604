import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../auth/decorators/public.decorator';
import { SkipEnvelope } from '../common/envelope/skip-envelope.decorator';
import { ShutdownState } from '../common/http/shutdown-state';
import { ApiErrors } from '../common/openapi/envelope.schemas';
import { Clock } from '../common/clock';
import { OutboxRepository } from '../mail/outbox.repository';

const CHECKS = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    required: ['status'],
    properties: {
      status: { type: 'string', enum: ['up'], example: 'up' },
      responseTime: { type: 'integer', minimum: 0, description: 'How long the check took, in milliseconds.', example: 1 },
      failing: { type: 'integer', minimum: 0, description: '`mail`: mails being retried, their last delivery attempt failed (docs/mail.md).', example: 0 },
      oldestAgeSeconds: { type: 'integer', minimum: 0, description: '`mail`: seconds the oldest of them has waited.', example: 0 },
    },
  },
  example: { database: { status: 'up', responseTime: 1 }, mail: { status: 'up', failing: 0, oldestAgeSeconds: 0 } },
};
const READY_SCHEMA = {
  type: 'object',
  required: ['status', 'info', 'error', 'details'],
  properties: {
    status: { type: 'string', enum: ['ok'], example: 'ok' },
    info: CHECKS,
    error: { type: 'object', example: {}, description: 'Empty when ready.' },
    details: CHECKS,
  },
};

@ApiTags('health')
@Controller('health')
@SkipEnvelope()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly shutdown: ShutdownState,
    private readonly outbox: OutboxRepository,
    private readonly clock: Clock,
  ) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness', description: 'Answers 200 while the process runs; it does not touch the database.' })
  @ApiOkResponse({
    description: 'The process is up.',
    schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'], example: 'ok' } } },
  })
  @ApiErrors()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  // The failure is the error envelope (503 SERVICE_UNAVAILABLE), not Terminus' own body: documented here.
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({
    summary: 'Readiness',
    description:
      'Answers 200 when the database answers a ping; 503 `SERVICE_UNAVAILABLE` when it does not, and from the moment the ' +
      'instance receives SIGTERM (so a load balancer stops sending it traffic while it drains). `mail` shows the mails being ' +
      'retried (docs/mail.md): a mail server that is down never makes the instance unready, its mails wait and are retried.',
  })
  @ApiOkResponse({ description: 'Ready for traffic.', schema: READY_SCHEMA })
  @ApiErrors()
  ready() {
    this.shutdown.assertAccepting();
    return this.health.check([
      () => this.database.pingCheck('database', { timeout: 2000 }),
      // Only the mails being retried: a mail not yet tried would tell who has an account (OutboxRepository.retrying).
      async () => ({ mail: { status: 'up' as const, ...(await this.outbox.retrying(this.clock.now())) } }),
    ]);
  }
}

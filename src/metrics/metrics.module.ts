import { Global, Module } from '@nestjs/common';
import { MetricsServer } from './metrics.server';
import { MetricsService } from './metrics.service';

/**
 * Prometheus metrics (docs/configuration-and-deployment.md, Metrics). Global, so that the few places that record an event (the sign-in
 * form, the rate limiter, the token service) inject MetricsService without importing this module; the
 * HTTP series are recorded by the hook createApp installs (http-metrics.ts).
 */
@Global()
@Module({
  providers: [MetricsService, MetricsServer],
  exports: [MetricsService],
})
export class MetricsModule {}

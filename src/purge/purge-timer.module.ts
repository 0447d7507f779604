import { Module } from '@nestjs/common';
import { TokenPurgeModule } from './token-purge.module';
import { TokenPurgeScheduler } from './token-purge.scheduler';

/** The running service's purge timer (PURGE_INTERVAL); the CLI imports TokenPurgeModule alone. */
@Module({
  imports: [TokenPurgeModule],
  providers: [TokenPurgeScheduler],
})
export class PurgeTimerModule {}

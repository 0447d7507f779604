import { Module } from '@nestjs/common';
import { SecurityEventsModule } from '../../account/events/security-events.module';
import { TokenPurgeService } from './token-purge.service';

/** The purge itself, shared by the service's timer and the CLI. */
@Module({
  imports: [SecurityEventsModule],
  providers: [TokenPurgeService],
  exports: [TokenPurgeService],
})
export class TokenPurgeModule {}

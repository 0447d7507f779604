import { Module } from '@nestjs/common';
import { TokenPurgeService } from './token-purge.service';

/** The purge itself, shared by the service's timer and the CLI. */
@Module({
  providers: [TokenPurgeService],
  exports: [TokenPurgeService],
})
export class TokenPurgeModule {}

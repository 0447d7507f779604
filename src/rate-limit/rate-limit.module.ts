import { Module } from '@nestjs/common';
import { RateLimitService } from './rate-limit.service';

/**
 * The request counters. Import this module wherever a route applies a limit itself (the OAuth endpoints
 * count per client after client authentication); Nest shares the one service instance.
 */
@Module({
  providers: [RateLimitService],
  exports: [RateLimitService],
})
export class RateLimitModule {}

import { Module } from '@nestjs/common';
import { RateLimitService } from './rate-limit.service';
import { SignInThrottleService } from './sign-in-throttle.service';
import { SignInThrottlesModule } from './sign-in-throttles.module';

/**
 * The request counters, and the guess counters of sign-ins, codes and mail links (SignInThrottleService).
 * Import this module wherever a route applies a limit itself (the OAuth endpoints count per client after
 * client authentication); Nest shares the one instance of each.
 */
@Module({
  imports: [SignInThrottlesModule],
  providers: [RateLimitService, SignInThrottleService],
  exports: [RateLimitService, SignInThrottleService],
})
export class RateLimitModule {}

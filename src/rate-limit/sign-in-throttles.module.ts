import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SignInThrottle } from './sign-in-throttle.entity';
import { SignInThrottlesRepository } from './sign-in-throttles.repository';

/** The guess counters in the database (`sign_in_throttles`): for SignInThrottleService and the purge, without the request limiter. */
@Module({
  imports: [TypeOrmModule.forFeature([SignInThrottle])],
  providers: [SignInThrottlesRepository],
  exports: [SignInThrottlesRepository],
})
export class SignInThrottlesModule {}

import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { SignInChangesModule } from '../security-events/sign-in-changes.module';
import { UsersModule } from '../users/users.module';
import { SecondFactorDataModule } from './second-factor-data.module';
import { SecondFactorService } from './second-factor.service';

/** The authenticator app and recovery codes of accounts (docs/second-factor.md), for the sign-in and the security page. */
@Module({
  imports: [SecondFactorDataModule, RateLimitModule, SignInChangesModule, UsersModule],
  providers: [SecondFactorService],
  exports: [SecondFactorService],
})
export class SecondFactorModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { SignInChangesModule } from '../security-events/sign-in-changes.module';
import { UsersModule } from '../users/users.module';
import { RecoveryCode } from './recovery-code.entity';
import { SecondFactorRepository } from './second-factor.repository';
import { SecondFactorService } from './second-factor.service';
import { TotpAuthenticator } from './totp-authenticator.entity';

/** The authenticator app and recovery codes of accounts (docs/second-factor.md), for the sign-in and the security page. */
@Module({
  imports: [TypeOrmModule.forFeature([TotpAuthenticator, RecoveryCode]), RateLimitModule, SignInChangesModule, UsersModule],
  providers: [SecondFactorRepository, SecondFactorService],
  exports: [SecondFactorService],
})
export class SecondFactorModule {}

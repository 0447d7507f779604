import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RecoveryCode } from './recovery-code.entity';
import { SecondFactorRepository } from './second-factor.repository';
import { TotpAuthenticator } from './totp-authenticator.entity';

/**
 * The authenticator apps and recovery codes as data only, for the modules that write them in a change's
 * transaction without the sign-in rules around them (WaysInModule, which the CLI builds too).
 */
@Module({
  imports: [TypeOrmModule.forFeature([TotpAuthenticator, RecoveryCode])],
  providers: [SecondFactorRepository],
  exports: [SecondFactorRepository],
})
export class SecondFactorDataModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OAuthDataModule } from '../../oauth/data/oauth-data.module';
import { SecondFactorDataModule } from '../../second-factor/second-factor-data.module';
import { UsersModule } from '../../users/users.module';
import { AccountMailToken } from './account-mail-token.entity';
import { AccountMailTokensRepository } from './account-mail-tokens.repository';
import { WaysInService } from './ways-in.service';

/** Ends every way into an account (WaysInService), for the account pages and the CLI alike. */
@Module({
  imports: [OAuthDataModule, SecondFactorDataModule, UsersModule, TypeOrmModule.forFeature([AccountMailToken])],
  providers: [AccountMailTokensRepository, WaysInService],
  exports: [AccountMailTokensRepository, WaysInService],
})
export class WaysInModule {}

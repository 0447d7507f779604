import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthorizationCodesRepository } from '../authorize/authorization-codes.repository';
import { ConsentsRepository } from '../authorize/consents.repository';
import { DeviceAuthorizationsRepository } from '../device/device-authorizations.repository';
import { AccessToken } from '../entities/access-token.entity';
import { AuthorizationCode } from '../entities/authorization-code.entity';
import { Consent } from '../entities/consent.entity';
import { DeviceAuthorization } from '../entities/device-authorization.entity';
import { PushedRequest } from '../entities/pushed-request.entity';
import { RefreshToken } from '../entities/refresh-token.entity';
import { PushedRequestsRepository } from '../authorize/pushed-requests.repository';
import { TokensRepository } from '../token/tokens.repository';

const repositories = [TokensRepository, AuthorizationCodesRepository, ConsentsRepository, DeviceAuthorizationsRepository, PushedRequestsRepository];

/**
 * The authorization server's tables and the repositories that own them (docs/add-a-module.md, "Data
 * access"): shared by the OAuth endpoints, the account pages, the purge and the seed command.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AuthorizationCode, RefreshToken, AccessToken, Consent, PushedRequest, DeviceAuthorization])],
  providers: repositories,
  exports: repositories,
})
export class OAuthDataModule {}

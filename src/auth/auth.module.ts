import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { AccessTokenCache } from './access-token-cache';
import { AccessTokenLookupService } from './access-token-lookup.service';
import { AccessGuard } from './guards/access.guard';
import { ApiKeyAuthGuard } from './guards/api-key-auth.guard';
import { BearerAuthGuard } from './guards/bearer-auth.guard';
import { ApiKeyStrategy } from './strategies/api-key.strategy';
import { BearerStrategy } from './strategies/bearer.strategy';

/**
 * Secure by default: the access guard runs on every route of the application (APP_GUARD), so a route
 * that forgets to declare its access needs a Bearer token rather than being open. The credentials are
 * Passport's: the `bearer` and `api-key` strategies, run by their AuthGuards.
 */
@Module({
  imports: [PassportModule, ApiKeysModule, RateLimitModule],
  providers: [
    AccessTokenCache,
    AccessTokenLookupService,
    BearerStrategy,
    ApiKeyStrategy,
    BearerAuthGuard,
    ApiKeyAuthGuard,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [AccessTokenLookupService, AccessTokenCache],
})
export class AuthModule {}

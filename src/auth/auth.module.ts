import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { AccessTokenCache } from './access-token-cache';
import { AccessTokenLookupService } from './access-token-lookup.service';
import { AccessGuard } from './guards/access.guard';
import { ApiKeyStrategy } from './strategies/api-key.strategy';
import { BearerTokenStrategy } from './strategies/bearer-token.strategy';

/**
 * Secure by default: the access guard runs on every route of the application (APP_GUARD), so a route
 * that forgets to declare its access needs a Bearer token rather than being open.
 */
@Module({
  imports: [ApiKeysModule, RateLimitModule],
  providers: [AccessTokenCache, AccessTokenLookupService, BearerTokenStrategy, ApiKeyStrategy, { provide: APP_GUARD, useClass: AccessGuard }],
  exports: [AccessTokenLookupService, AccessTokenCache],
})
export class AuthModule {}

import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DpopProof } from './dpop/dpop-proof.entity';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { AccessTokenCache } from './access-token-cache';
import { AccessTokenLookupService } from './access-token-lookup.service';
import { DpopReplayService } from './dpop/dpop-replay.service';
import { DpopService } from './dpop/dpop.service';
import { DpopAuthGuard } from './guards/dpop-auth.guard';
import { DpopStrategy } from './strategies/dpop.strategy';
import { AccessGuard } from './guards/access.guard';
import { ApiKeyAuthGuard } from './guards/api-key-auth.guard';
import { BearerAuthGuard } from './guards/bearer-auth.guard';
import { ApiKeyStrategy } from './strategies/api-key.strategy';
import { BearerStrategy } from './strategies/bearer.strategy';

/**
 * Secure by default: the access guard runs on every route of the application (APP_GUARD), so a route
 * that forgets to declare its access needs a Bearer token rather than being open. The credentials are
 * Passport's: the `bearer`, `dpop` (RFC 9449) and `api-key` strategies, run by their AuthGuards.
 */
@Module({
  imports: [PassportModule, ApiKeysModule, RateLimitModule, TypeOrmModule.forFeature([DpopProof])],
  providers: [
    AccessTokenCache,
    AccessTokenLookupService,
    DpopReplayService,
    DpopService,
    BearerStrategy,
    DpopStrategy,
    ApiKeyStrategy,
    BearerAuthGuard,
    DpopAuthGuard,
    ApiKeyAuthGuard,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [AccessTokenLookupService, AccessTokenCache, DpopService],
})
export class AuthModule {}

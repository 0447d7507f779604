import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { AccessTokenCache } from './access-token-cache';
import { AccessTokenGrantsRepository } from './access-token-grants.repository';
import { AccessTokenLookupService } from './access-token-lookup.service';
import { DpopProofsModule } from './dpop/dpop-proofs.module';
import { DpopReplayService } from './dpop/dpop-replay.service';
import { DpopService } from './dpop/dpop.service';
import { AccessRules } from './guards/access-rules';
import { ProtectedResources } from './protected-resources';
import { AUTH_GUARDS } from './guards/auth-guards';
import { ApiKeyStrategy } from './strategies/api-key.strategy';
import { BearerStrategy } from './strategies/bearer.strategy';
import { DpopStrategy } from './strategies/dpop.strategy';

/**
 * Secure by default: the access pipeline (src/auth/guards/auth-guards.ts) runs on every route of the
 * application as APP_GUARD providers, in that order, so a route that forgets to declare its access needs
 * a Bearer token rather than being open. The credentials are Passport's, as the design card says:
 * `passport-http-bearer` (`bearer`), `passport-headerapikey` (`api-key`) and the service's own `dpop`
 * strategy (RFC 9449), each a `PassportStrategy` run by its `AuthGuard`.
 */
@Module({
  imports: [ApiKeysModule, RateLimitModule, DpopProofsModule],
  providers: [
    AccessTokenCache,
    AccessTokenGrantsRepository,
    AccessTokenLookupService,
    DpopReplayService,
    DpopService,
    BearerStrategy,
    DpopStrategy,
    ApiKeyStrategy,
    AccessRules,
    ProtectedResources,
    ...AUTH_GUARDS.map((guard) => ({ provide: APP_GUARD, useClass: guard })),
  ],
  exports: [AccessTokenLookupService, AccessTokenCache, DpopService, ProtectedResources],
})
export class AuthModule {}

import { Module } from '@nestjs/common';
import { SecurityEventsModule } from '../account/events/security-events.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { OPENAPI_SCOPES } from '../common/openapi/swagger';
import { ClientsModule } from '../clients/clients.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { IdTokensModule } from '../oidc/id-tokens.module';
import { UsersModule } from '../users/users.module';
import { AuthorizationCodesService } from './authorize/authorization-codes.service';
import { AuthorizeController } from './authorize/authorize.controller';
import { AuthorizeService } from './authorize/authorize.service';
import { ConsentsService } from './authorize/consents.service';
import { DeviceAuthorizationController } from './device/device-authorization.controller';
import { DeviceAuthorizationsService } from './device/device-authorizations.service';
import { DeviceController } from './device/device.controller';
import { DeviceFlowService } from './device/device-flow.service';
import { DiscoveryController } from './discovery/discovery.controller';
import { FlowContexts } from './flow-context';
import { AccessToken } from './entities/access-token.entity';
import { AuthorizationCode } from './entities/authorization-code.entity';
import { Consent } from './entities/consent.entity';
import { DeviceAuthorization } from './entities/device-authorization.entity';
import { PushedRequest } from './entities/pushed-request.entity';
import { RefreshToken } from './entities/refresh-token.entity';
import { SignInThrottle } from './entities/sign-in-throttle.entity';
import { IntrospectionController } from './introspection/introspection.controller';
import { IntrospectionService } from './introspection/introspection.service';
import { referenceScopes } from './openapi/reference-scopes';
import { TokenPurgeModule } from './purge/token-purge.module';
import { TokenPurgeScheduler } from './purge/token-purge.scheduler';
import { ParController } from './par/par.controller';
import { PushedRequestsService } from './par/pushed-requests.service';
import { RevocationController } from './revocation/revocation.controller';
import { RevocationService } from './revocation/revocation.service';
import { WebModule } from '../web/web.module';
import { DeviceCookieService } from './sign-in/device-cookie.service';
import { SignInThrottleService } from './sign-in/sign-in-throttle.service';
import { SignInService } from './sign-in/sign-in.service';
import { ClientAuthenticationService } from './token/client-authentication';
import { ClientCaller } from './token/client-caller';
import { FormContentTypeHook } from './token/form-content-type.hook';
import { TokenLookup } from './token/token-lookup';
import { TokenController } from './token/token.controller';
import { TokenService } from './token/token.service';
import { UserInfoController } from './userinfo/userinfo.controller';
import { UserInfoService } from './userinfo/userinfo.service';

/** The OAuth 2.0 authorization server (docs/integrate-with-oauth.md): discovery, authorize with its pages, token, revoke, introspect, UserInfo. */
@Module({
  imports: [
    TypeOrmModule.forFeature([AuthorizationCode, RefreshToken, AccessToken, Consent, SignInThrottle, PushedRequest, DeviceAuthorization]),
    AuthModule,
    ClientsModule,
    UsersModule,
    RateLimitModule,
    TokenPurgeModule,
    SecurityEventsModule,
    IdTokensModule,
    WebModule,
  ],
  controllers: [
    DiscoveryController,
    AuthorizeController,
    TokenController,
    RevocationController,
    IntrospectionController,
    UserInfoController,
    DeviceAuthorizationController,
    DeviceController,
    ParController,
  ],
  providers: [
    AuthorizeService,
    AuthorizationCodesService,
    ConsentsService,
    SignInThrottleService,
    SignInService,
    DeviceCookieService,
    ClientAuthenticationService,
    ClientCaller,
    TokenLookup,
    TokenService,
    RevocationService,
    IntrospectionService,
    UserInfoService,
    PushedRequestsService,
    TokenPurgeScheduler,
    FormContentTypeHook,
    DeviceAuthorizationsService,
    DeviceFlowService,
    FlowContexts,
    // The reference's "Authorize" dialog offers the scopes of this server's catalogue.
    { provide: OPENAPI_SCOPES, useFactory: referenceScopes },
  ],
})
export class OAuthModule {}

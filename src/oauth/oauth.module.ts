import { Module } from '@nestjs/common';
import { appConfig } from '../config/configuration';
import { SecurityEventsModule } from '../security-events/security-events.module';
import { AuthModule } from '../auth/auth.module';
import { OPENAPI_SCOPES } from '../common/openapi/swagger';
import { ClientsModule } from '../clients/clients.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { IdTokensModule } from '../oidc/id-tokens.module';
import { UsersModule } from '../users/users.module';
import { SecondFactorModule } from '../second-factor/second-factor.module';
import { PasskeysModule } from '../passkeys/passkeys.module';
import { AuthorizationCodesService } from './authorize/authorization-codes.service';
import { AuthorizeController } from './authorize/authorize.controller';
import { AuthorizeService } from './authorize/authorize.service';
import { ConsentsService } from './authorize/consents.service';
import { DeviceAuthorizationController } from './device/device-authorization.controller';
import { DeviceAuthorizationsService } from './device/device-authorizations.service';
import { DeviceController } from './device/device.controller';
import { DeviceFlowService } from './device/device-flow.service';
import { DiscoveryController } from './discovery/discovery.controller';
import { ProtectedResourceController } from './discovery/protected-resource.controller';
import { FlowContexts } from './flow-context';
import { IntrospectionController } from './introspection/introspection.controller';
import { IntrospectionService } from './introspection/introspection.service';
import { OAuthDataModule } from './data/oauth-data.module';
import { referenceScopes } from './openapi/reference-scopes';
import { ParController } from './authorize/par.controller';
import { ClientRegistrationService } from './registration/client-registration.service';
import { RegistrationController } from './registration/registration.controller';
import { PushedRequestsService } from './authorize/pushed-requests.service';
import { RevocationController } from './revocation/revocation.controller';
import { RevocationService } from './revocation/revocation.service';
import { WebModule } from '../web/web.module';
import { DeviceCookieService } from './sign-in/device-cookie.service';
import { SignInService } from './sign-in/sign-in.service';
import { ClientAuthenticationService } from './client-auth/client-authentication';
import { ClientCaller } from './client-auth/client-caller';
import { MetadataFetchBudgets } from './client-auth/metadata-fetch-budgets';
import { FormContentTypeHook } from './token/form-content-type.hook';
import { TokenController } from './token/token.controller';
import { TokenService } from './token/token.service';
import { UserInfoController } from './userinfo/userinfo.controller';
import { UserInfoService } from './userinfo/userinfo.service';

/** The OAuth 2.0 authorization server (docs/integrate-with-oauth.md): discovery, authorize with its pages, token, revoke, introspect, UserInfo, dynamic registration. */
@Module({
  imports: [
    OAuthDataModule,
    AuthModule,
    ClientsModule,
    UsersModule,
    RateLimitModule,
    SecurityEventsModule,
    IdTokensModule,
    WebModule,
    SecondFactorModule,
    PasskeysModule,
  ],
  controllers: [
    DiscoveryController,
    ProtectedResourceController,
    AuthorizeController,
    TokenController,
    RevocationController,
    IntrospectionController,
    UserInfoController,
    DeviceAuthorizationController,
    DeviceController,
    ParController,
    RegistrationController,
  ],
  providers: [
    AuthorizeService,
    AuthorizationCodesService,
    ConsentsService,
    SignInService,
    DeviceCookieService,
    ClientAuthenticationService,
    MetadataFetchBudgets,
    ClientCaller,
    TokenService,
    RevocationService,
    IntrospectionService,
    UserInfoService,
    PushedRequestsService,
    FormContentTypeHook,
    DeviceAuthorizationsService,
    DeviceFlowService,
    FlowContexts,
    ClientRegistrationService,
    // The reference's "Authorize" dialog offers the scopes of this server's catalogue.
    { provide: OPENAPI_SCOPES, useFactory: referenceScopes, inject: [appConfig.KEY] },
  ],
})
export class OAuthModule {}

import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { OAuthDataModule } from '../oauth/data/oauth-data.module';
import { WebModule } from '../web/web.module';
import { UsersModule } from '../users/users.module';
import { AccountController } from './account.controller';
import { ConnectedAppsController } from './apps/connected-apps.controller';
import { ConnectedAppsService } from './apps/connected-apps.service';
import { SecurityEventsModule } from '../security-events/security-events.module';
import { SignedInPageGuard } from './signed-in-page.guard';
import { SecondFactorModule } from '../second-factor/second-factor.module';
import { PasskeysModule } from '../passkeys/passkeys.module';
import { SecurityController } from './security/security.controller';
import { RecoveryCodesShownOnce } from './security/recovery-codes-shown-once';

/** The self-service pages of a signed-in user (README.md, Your account), on the sign-in session of the OAuth pages. */
@Module({
  imports: [AuthModule, WebModule, UsersModule, SecurityEventsModule, OAuthDataModule, SecondFactorModule, PasskeysModule],
  controllers: [AccountController, ConnectedAppsController, SecurityController],
  providers: [SignedInPageGuard, ConnectedAppsService, RecoveryCodesShownOnce],
  exports: [SignedInPageGuard, WebModule, UsersModule, SecurityEventsModule],
})
export class AccountModule {}

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

/** The self-service pages of a signed-in user (README.md, Your account), on the sign-in session of the OAuth pages. */
@Module({
  imports: [AuthModule, WebModule, UsersModule, SecurityEventsModule, OAuthDataModule],
  controllers: [AccountController, ConnectedAppsController],
  providers: [SignedInPageGuard, ConnectedAppsService],
  exports: [SignedInPageGuard, WebModule, UsersModule, SecurityEventsModule],
})
export class AccountModule {}

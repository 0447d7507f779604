import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { OAuthDataModule } from '../oauth/data/oauth-data.module';
import { WebModule } from '../web/web.module';
import { UsersModule } from '../users/users.module';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { ClientsModule } from '../clients/clients.module';
import { AccountController } from './account.controller';
import { ConnectedAppsController } from './apps/connected-apps.controller';
import { ConnectedAppsService } from './apps/connected-apps.service';
import { SecurityEventsModule } from '../security-events/security-events.module';
import { SignedInPageGuard } from './signed-in-page.guard';
import { SecondFactorModule } from '../second-factor/second-factor.module';
import { PasskeysModule } from '../passkeys/passkeys.module';
import { SecurityController } from './security/security.controller';
import { RecoveryCodesShownOnce } from './security/recovery-codes-shown-once';

import { MailModule } from '../mail/mail.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { PendingRegistrationsModule } from './sign-up/pending-registrations.module';
import { SignUpController } from './sign-up/sign-up.controller';
import { SignUpService } from './sign-up/sign-up.service';
import { MailLinkGuesses } from './mail-links/mail-link-guesses.service';
import { MailBudget } from './mail-links/mail-budget.service';
import { WaysInModule } from './password/ways-in.module';
import { PasswordResetController } from './password/password-reset.controller';
import { PasswordResetService } from './password/password-reset.service';
import { AccountSecurityService } from './security/account-security.service';
import { ConfirmNewEmailController } from './security/confirm-new-email.controller';
import { AccountDataController } from './your-data/account-data.controller';
import { AccountDataService } from './your-data/account-data.service';
import { ConfirmAccessController } from './security/confirm-access.controller';
import { RecentProofGuard } from './security/recent-proof.guard';
import { RecentProofService } from './security/recent-proof.service';

/** The self-service pages of a signed-in user (README.md, Your account), on the sign-in session of the OAuth pages. */
@Module({
  imports: [AuthModule, WebModule, UsersModule, ClientsModule, ApiKeysModule, SecurityEventsModule, OAuthDataModule, SecondFactorModule, PasskeysModule, MailModule, RateLimitModule, WaysInModule, PendingRegistrationsModule],
  controllers: [AccountController, ConnectedAppsController, SecurityController, SignUpController, PasswordResetController, ConfirmNewEmailController, AccountDataController, ConfirmAccessController],
  providers: [SignedInPageGuard, ConnectedAppsService, RecoveryCodesShownOnce, MailLinkGuesses, MailBudget, SignUpService, PasswordResetService, AccountSecurityService, AccountDataService, RecentProofService, RecentProofGuard],
  exports: [SignedInPageGuard, WebModule, UsersModule, SecurityEventsModule],
})
export class AccountModule {}

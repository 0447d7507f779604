import { Module } from '@nestjs/common';
import { OAuthModule } from '../oauth/oauth.module';
import { UsersModule } from '../users/users.module';
import { AccountController } from './account.controller';
import { SecurityEventsModule } from './events/security-events.module';
import { SignedInPageGuard } from './signed-in-page.guard';

/** The self-service pages of a signed-in user (CONTRACT §8), on the sign-in session of the OAuth pages. */
@Module({
  imports: [OAuthModule, UsersModule, SecurityEventsModule],
  controllers: [AccountController],
  providers: [SignedInPageGuard],
  exports: [SignedInPageGuard, OAuthModule, UsersModule, SecurityEventsModule],
})
export class AccountModule {}

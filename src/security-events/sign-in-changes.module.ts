import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { SecurityEventsModule } from './security-events.module';
import { SignInChanges } from './sign-in-changes.service';

/**
 * The changes to how an account signs in, recorded and mailed (docs/second-factor.md): apart from
 * SecurityEventsModule, so that what only records events (the CLI's purge among them) needs no mail.
 */
@Module({
  imports: [SecurityEventsModule, MailModule],
  providers: [SignInChanges],
  exports: [SignInChanges],
})
export class SignInChangesModule {}

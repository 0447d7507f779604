import { Module } from '@nestjs/common';
import { WaysInModule } from '../account/password/ways-in.module';
import { PendingRegistrationsModule } from '../account/sign-up/pending-registrations.module';
import { DpopProofsModule } from '../auth/dpop/dpop-proofs.module';
import { OAuthDataModule } from '../oauth/data/oauth-data.module';
import { SignInThrottlesModule } from '../rate-limit/sign-in-throttles.module';
import { SecurityEventsModule } from '../security-events/security-events.module';
import { EndedSessionsModule } from '../web/session/ended-sessions.module';
import { TokenPurgeService } from './token-purge.service';
import { ClientsModule } from '../clients/clients.module';

/**
 * The purge itself, shared by the service's timer and the CLI. It provides no repository: it imports
 * the modules that own the tables, each exporting its own (docs/add-a-module.md, "The purge").
 */
@Module({
  imports: [OAuthDataModule, DpopProofsModule, SignInThrottlesModule, EndedSessionsModule, SecurityEventsModule, PendingRegistrationsModule, WaysInModule, ClientsModule],
  providers: [TokenPurgeService],
  exports: [TokenPurgeService],
})
export class TokenPurgeModule {}

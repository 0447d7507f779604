import { Module } from '@nestjs/common';
import { SecurityEventsModule } from '../security-events/security-events.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DpopProof } from '../auth/dpop/dpop-proof.entity';
import { DpopProofsRepository } from '../auth/dpop/dpop-proofs.repository';
import { OAuthDataModule } from '../oauth/data/oauth-data.module';
import { TokenPurgeService } from './token-purge.service';
import { PendingRegistrationsRepository } from '../account/sign-up/pending-registrations.repository';
import { AccountMailTokensRepository } from '../account/password/account-mail-tokens.repository';
import { ClientsModule } from '../clients/clients.module';

/** The purge itself, shared by the service's timer and the CLI. */
@Module({
  imports: [SecurityEventsModule, OAuthDataModule, ClientsModule, TypeOrmModule.forFeature([DpopProof])],
  providers: [DpopProofsRepository, PendingRegistrationsRepository, AccountMailTokensRepository, TokenPurgeService],
  exports: [TokenPurgeService],
})
export class TokenPurgeModule {}

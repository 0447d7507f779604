import { Module } from '@nestjs/common';
import { SecurityEventsModule } from '../../security-events/security-events.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DpopProof } from '../../auth/dpop/dpop-proof.entity';
import { DpopProofsRepository } from '../../auth/dpop/dpop-proofs.repository';
import { OAuthDataModule } from '../data/oauth-data.module';
import { TokenPurgeService } from './token-purge.service';

/** The purge itself, shared by the service's timer and the CLI. */
@Module({
  imports: [SecurityEventsModule, OAuthDataModule, TypeOrmModule.forFeature([DpopProof])],
  providers: [DpopProofsRepository, TokenPurgeService],
  exports: [TokenPurgeService],
})
export class TokenPurgeModule {}

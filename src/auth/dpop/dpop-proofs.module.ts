import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DpopProof } from './dpop-proof.entity';
import { DpopProofsRepository } from './dpop-proofs.repository';

/** The used DPoP proofs (`dpop_proofs`) and their repository: for the DPoP check and the purge. */
@Module({
  imports: [TypeOrmModule.forFeature([DpopProof])],
  providers: [DpopProofsRepository],
  exports: [DpopProofsRepository],
})
export class DpopProofsModule {}

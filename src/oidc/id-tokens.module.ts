import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module';
import { UsersModule } from '../users/users.module';
import { IdTokenService } from './id-token.service';
import { SigningKeysStoreModule } from './keys/signing-keys.module';

/** ID tokens (docs/integrate-with-oauth.md, OpenID Connect), signed with the keys of SigningKeysModule: what the token endpoint issues. */
@Module({
  imports: [SigningKeysStoreModule, UsersModule, ClientsModule],
  providers: [IdTokenService],
  exports: [IdTokenService],
})
export class IdTokensModule {}

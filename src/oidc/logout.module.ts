import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module';
import { WebModule } from '../web/web.module';
import { SigningKeysStoreModule } from './keys/signing-keys.module';
import { LogoutController } from './logout.controller';
import { LogoutService } from './logout.service';

/** OpenID Connect RP-Initiated Logout 1.0 (docs/integrate-with-oauth.md, OpenID Connect): ends the sign-in session of the OAuth pages. */
@Module({
  imports: [SigningKeysStoreModule, ClientsModule, WebModule],
  controllers: [LogoutController],
  providers: [LogoutService],
})
export class LogoutModule {}

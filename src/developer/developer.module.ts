import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module';
import { SecurityEventsModule } from '../security-events/security-events.module';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuthModule } from '../auth/auth.module';
import { ClientsModule } from '../clients/clients.module';
import { DeveloperController } from './developer.controller';
import { DeveloperService } from './developer.service';
import { ShownOnceService } from './shown-once.service';

/** The developer portal (README.md, Register your application): a user's own OAuth applications and API keys. */
@Module({
  imports: [AccountModule, ClientsModule, ApiKeysModule, AuthModule, SecurityEventsModule],
  controllers: [DeveloperController],
  providers: [DeveloperService, ShownOnceService],
  exports: [DeveloperService],
})
export class DeveloperModule {}

import { Module } from '@nestjs/common';
import { SecurityEventsModule } from '../account/events/security-events.module';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuthModule } from '../auth/auth.module';
import { ClientsModule } from '../clients/clients.module';
import { DeveloperService } from './developer.service';

/** The developer portal (CONTRACT §8): a user's own OAuth applications and API keys. */
@Module({
  imports: [ClientsModule, ApiKeysModule, AuthModule, SecurityEventsModule],
  providers: [DeveloperService],
  exports: [DeveloperService],
})
export class DeveloperModule {}

import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { ClientsModule } from '../clients/clients.module';
import { StartupsModule } from '../startups/startups.module';
import { UsersModule } from '../users/users.module';
import { DemoDataService } from './demo-data.service';

@Module({
  imports: [UsersModule, ApiKeysModule, ClientsModule, StartupsModule],
  providers: [DemoDataService],
})
export class DemoModule {}

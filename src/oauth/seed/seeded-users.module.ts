import { Module } from '@nestjs/common';
import { ClientsModule } from '../../clients/clients.module';
import { OAuthDataModule } from '../data/oauth-data.module';
import { SeededUsersRepository } from './seeded-users.repository';
import { SeededUsersService } from './seeded-users.service';

/** Seeded users and their grants, for the `seed --users` command. */
@Module({
  imports: [ClientsModule, OAuthDataModule],
  providers: [SeededUsersRepository, SeededUsersService],
  exports: [SeededUsersService],
})
export class SeededUsersModule {}

import { Module } from '@nestjs/common';
import { ClientsModule } from '../../clients/clients.module';
import { SeededUsersService } from './seeded-users.service';

/** Seeded users and their grants, for the `seed --users` command. */
@Module({
  imports: [ClientsModule],
  providers: [SeededUsersService],
  exports: [SeededUsersService],
})
export class SeededUsersModule {}

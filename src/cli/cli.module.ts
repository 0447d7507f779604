import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { configNamespaces } from '../config/configuration';
import { DatabaseModule } from '../database/database.module';
import { CreateUserCommand } from '../users/users.commands';
import { UsersModule } from '../users/users.module';

/**
 * The CLI runs on the same modules as the service (same configuration, same database, same services);
 * each feature contributes its commands here.
 */
@Module({
  imports: [ConfigModule.forRoot({ isGlobal: true, cache: true, load: configNamespaces }), DatabaseModule, UsersModule],
  providers: [CreateUserCommand],
})
export class CliModule {}

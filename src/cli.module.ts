import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { ClockModule } from './common/clock';
import { API_KEY_COMMANDS } from './api-keys/api-keys.commands';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { CLIENT_COMMANDS } from './clients/clients.commands';
import { ClientsModule } from './clients/clients.module';
import { configNamespaces } from './config/configuration';
import { DatabaseModule } from './database/database.module';
import { KEY_COMMANDS } from './oidc/keys/keys.commands';
import { SigningKeysStoreModule } from './oidc/keys/signing-keys.module';
import { SeededUsersModule } from './oauth/seed/seeded-users.module';
import { TokenPurgeModule } from './purge/token-purge.module';
import { PurgeTokensCommand } from './purge/tokens.commands';
import { SeedCommand } from './startups/seed.command';
import { StartupsModule } from './startups/startups.module';
import { CreateUserCommand } from './users/users.commands';
import { ResetPasswordCommand } from './account/password/reset-password.command';
import { UsersModule } from './users/users.module';
import { WaysInModule } from './account/password/ways-in.module';

/**
 * The CLI runs on the same modules as the service (same configuration, same database, same services);
 * each feature contributes its commands here.
 */
@Module({
  imports: [ConfigModule.forRoot({ isGlobal: true, cache: true, load: configNamespaces }), ClockModule, DatabaseModule, UsersModule, WaysInModule, ApiKeysModule, StartupsModule, ClientsModule, TokenPurgeModule, SeededUsersModule, SigningKeysStoreModule],
  providers: [CreateUserCommand, ResetPasswordCommand, ...API_KEY_COMMANDS, SeedCommand, ...CLIENT_COMMANDS, PurgeTokensCommand, ...KEY_COMMANDS],
})
export class CliModule {}

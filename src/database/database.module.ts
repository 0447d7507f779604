import { Global, Module } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { databaseConfig } from '../config/configuration';
import { dataSourceOptions } from './data-source-options';
import { DatabaseInfo } from './database-info';
import { runMigrations } from './migrate';
import { Transactions } from './transaction';

/**
 * The connection. The committed migrations run before the data source is handed to any other module
 * (docs/configuration-and-deployment.md), so nothing ever sees a half-migrated schema. Global, so that
 * every service may run its repositories' statements in one transaction (Transactions).
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [databaseConfig.KEY],
      // Each feature registers its own entities with TypeOrmModule.forFeature; they are loaded here.
      useFactory: (config: ConfigType<typeof databaseConfig>) => ({ ...dataSourceOptions(config), autoLoadEntities: true, retryAttempts: 3, retryDelay: 1000 }),
      dataSourceFactory: async (options) => {
        const source = await new DataSource(options!).initialize();
        await runMigrations(source);
        return source;
      },
    }),
  ],
  providers: [Transactions, DatabaseInfo],
  exports: [Transactions, DatabaseInfo],
})
export class DatabaseModule {}

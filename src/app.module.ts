import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { CommonModule } from './common/common.module';
import { LoggingModule } from './common/logging/logging.module';
import { configNamespaces } from './config/configuration';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, cache: true, load: configNamespaces }),
    LoggingModule,
    DatabaseModule,
    CommonModule,
    HealthModule,
  ],
})
export class AppModule {}

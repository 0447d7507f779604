import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AccountModule } from './account/account.module';
import { AuthModule } from './auth/auth.module';
import { ClientsModule } from './clients/clients.module';
import { ClockModule } from './common/clock';
import { CommonModule } from './common/common.module';
import { LoggingModule } from './common/logging/logging.module';
import { configNamespaces } from './config/configuration';
import { DatabaseModule } from './database/database.module';
import { DemoModule } from './demo/demo.module';
import { DeveloperModule } from './developer/developer.module';
import { HealthModule } from './health/health.module';
import { HomeModule } from './home/home.module';
import { IndustriesModule } from './industries/industries.module';
import { McpModule } from './mcp/mcp.module';
import { MeModule } from './me/me.module';
import { MetricsModule } from './metrics/metrics.module';
import { OAuthModule } from './oauth/oauth.module';
import { SigningKeysModule } from './oidc/keys/signing-keys.module';
import { LogoutModule } from './oidc/logout.module';
import { MailModule } from './mail/mail.module';
import { PurgeTimerModule } from './purge/purge-timer.module';
import { StartupsModule } from './startups/startups.module';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, cache: true, load: configNamespaces }),
    LoggingModule,
    DatabaseModule,
    CommonModule,
    ClockModule,
    HealthModule,
    AuthModule,
    IndustriesModule,
    StartupsModule,
    MeModule,
    McpModule,
    ClientsModule,
    OAuthModule,
    SigningKeysModule,
    LogoutModule,
    AccountModule,
    PurgeTimerModule,
    DeveloperModule,
    DemoModule,
    MetricsModule,
    HomeModule,
    MailModule,
  ],
})
export class AppModule {}

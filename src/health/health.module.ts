import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { MailModule } from '../mail/mail.module';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json', logger: false }), MailModule],
  controllers: [HealthController],
})
export class HealthModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SecurityEvent } from './security-event.entity';
import { SecurityEventsRepository } from './security-events.repository';
import { SecurityEventsService } from './security-events.service';

/** The security events of accounts: imported by every module that records one. */
@Module({
  imports: [TypeOrmModule.forFeature([SecurityEvent])],
  providers: [SecurityEventsRepository, SecurityEventsService],
  exports: [SecurityEventsService],
})
export class SecurityEventsModule {}

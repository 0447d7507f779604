import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PendingRegistration } from './pending-registration.entity';
import { PendingRegistrationsRepository } from './pending-registrations.repository';

/** The sign-ups awaiting their confirmation (`pending_registrations`): for the sign-up pages and the purge. */
@Module({
  imports: [TypeOrmModule.forFeature([PendingRegistration])],
  providers: [PendingRegistrationsRepository],
  exports: [PendingRegistrationsRepository],
})
export class PendingRegistrationsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Client } from './client.entity';
import { ClientsRepository } from './clients.repository';
import { ClientsService } from './clients.service';
import { DemoClientsService } from './demo-clients.service';

/** Registered OAuth clients (RFC 6749 §2), managed from the CLI. */
@Module({
  imports: [TypeOrmModule.forFeature([Client])],
  providers: [ClientsRepository, ClientsService, DemoClientsService],
  // The repository for the purge (src/purge), which asks each module to remove its own rows.
  exports: [ClientsService, DemoClientsService, ClientsRepository],
})
export class ClientsModule {}

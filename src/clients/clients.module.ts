import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Client } from './client.entity';
import { ClientsRepository } from './clients.repository';
import { ClientsService } from './clients.service';
import { DemoClientsService } from './demo-clients.service';
import { AddressResolver, FetchDeadline } from './metadata-documents/address-resolver';
import { ClientMetadataDocuments } from './metadata-documents/client-metadata-documents.service';
import { MetadataDocumentFetcher } from './metadata-documents/metadata-document-fetcher';

/** Registered OAuth clients (RFC 6749 §2), managed from the CLI, and those known by a Client ID Metadata Document. */
@Module({
  imports: [TypeOrmModule.forFeature([Client])],
  providers: [ClientsRepository, ClientsService, DemoClientsService, ClientMetadataDocuments, MetadataDocumentFetcher, AddressResolver, FetchDeadline],
  // The repository for the purge (src/purge), which asks each module to remove its own rows.
  exports: [ClientsService, DemoClientsService, ClientsRepository, ClientMetadataDocuments],
})
export class ClientsModule {}

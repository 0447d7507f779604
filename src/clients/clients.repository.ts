import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { jsonStringArray, scopeList } from '../database/columns';
import { insertOwned } from '../database/owned-insert';
import { PreparedQuery, preparedQuery } from '../database/prepared-query';
import { params } from '../database/sql';
import { Client, ClientSource, ClientType } from './client.entity';

interface ClientRow {
  id: number | string;
  client_id: string;
  name: string;
  type: ClientType;
  secret_hash: string | null;
  redirect_uris: string;
  scopes: string;
  created_at: number | string;
  owner_id: number | string | null;
  id_token_signed_response_alg: 'RS256' | 'ES256';
  /** PostgreSQL gives a boolean, SQLite 0 or 1. */
  verified: boolean | number;
  require_par: boolean | number;
  device_flow: boolean | number;
  source: ClientSource;
  metadata_document: string | null;
  metadata_fetched_at: number | string | null;
}

/**
 * The registered OAuth clients (`oauth_clients`). The read by `client_id` runs on every
 * client-authenticated OAuth request: a prepared statement (src/database/prepared-query.ts), mapped like
 * the entity. A client with an owner is inserted by one statement that counts the owner's clients
 * (src/database/owned-insert.ts), so two requests racing cannot pass the limit together.
 */
@Injectable()
export class ClientsRepository {
  private readonly byClientId: PreparedQuery<ClientRow>;

  constructor(
    @InjectRepository(Client) private readonly clients: Repository<Client>,
    private readonly dataSource: DataSource,
  ) {
    this.byClientId = preparedQuery(
      dataSource,
      'sp_client_by_client_id',
      'SELECT id, client_id, name, type, secret_hash, redirect_uris, scopes, created_at, owner_id, id_token_signed_response_alg, verified, require_par, device_flow, source, metadata_document, metadata_fetched_at FROM oauth_clients WHERE client_id = $1',
    );
  }

  exists(clientId: string): Promise<boolean> {
    return this.clients.existsBy({ clientId });
  }

  /** A new client's row without its id, to insert. */
  build(fields: Omit<Client, 'id'>): Client {
    return this.clients.create(fields);
  }

  insert(client: Client): Promise<Client> {
    return this.clients.save(client);
  }

  /** Inserts a client owned by `ownerId` while they hold fewer than `limit` clients; its id (OwnerLimitReachedError otherwise). */
  insertOwned(client: Client, ownerId: number, limit: number): Promise<number> {
    return insertOwned(this.dataSource, {
      table: 'oauth_clients',
      row: {
        client_id: client.clientId,
        name: client.name,
        type: client.type,
        secret_hash: client.secretHash,
        redirect_uris: jsonStringArray.to(client.redirectUris) as string,
        scopes: scopeList.to(client.scopes) as string,
        created_at: client.createdAt,
        // better-sqlite3 binds no booleans; PostgreSQL reads the parameter '1' as true.
        ...(client.deviceFlow ? { device_flow: 1 } : {}),
        // verified: left to the column's default, false (better-sqlite3 binds no booleans).
      },
      ownerId,
      limit,
    });
  }

  /**
   * The row of a client known by its metadata document (docs/integrate-with-oauth.md, "Clients
   * identified by a URL"), inserted on its first valid fetch and brought up to date by every later one:
   * one statement, so that two instances fetching at once cannot insert it twice. A registered client
   * is never touched (its id never is a URL, and the update is limited to `source = 'metadata_document'`).
   */
  async saveMetadataDocumentClient(fields: { clientId: string; name: string; redirectUris: string[]; scopes: string[]; document: string; fetchedAt: number }): Promise<void> {
    const p = params(this.dataSource, 9);
    await this.dataSource.query(
      `INSERT INTO oauth_clients (client_id, name, type, redirect_uris, scopes, created_at, source, metadata_document, metadata_fetched_at)
       VALUES (${p})
       ON CONFLICT (client_id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris, scopes = excluded.scopes,
         metadata_document = excluded.metadata_document, metadata_fetched_at = excluded.metadata_fetched_at
       WHERE oauth_clients.source = 'metadata_document'`,
      [
        fields.clientId,
        fields.name,
        'public',
        jsonStringArray.to(fields.redirectUris),
        scopeList.to(fields.scopes),
        fields.fetchedAt,
        'metadata_document',
        fields.document,
        fields.fetchedAt,
      ],
    );
  }

  all(): Promise<Client[]> {
    return this.clients.find({ order: { id: 'ASC' } });
  }

  ownedBy(ownerId: number): Promise<Client[]> {
    return this.clients.find({ where: { ownerId }, order: { id: 'ASC' } });
  }

  async findByClientId(clientId: string): Promise<Client | null> {
    const [row] = await this.byClientId.all(clientId);
    if (!row) return null;
    return Object.assign(new Client(), {
      id: Number(row.id),
      clientId: row.client_id,
      name: row.name,
      type: row.type,
      secretHash: row.secret_hash,
      redirectUris: jsonStringArray.from(row.redirect_uris) as string[],
      scopes: scopeList.from(row.scopes) as string[],
      createdAt: Number(row.created_at),
      ownerId: row.owner_id === null ? null : Number(row.owner_id),
      idTokenSignedResponseAlg: row.id_token_signed_response_alg,
      verified: Boolean(row.verified),
      requirePar: Boolean(row.require_par),
      deviceFlow: Boolean(row.device_flow),
      source: row.source,
      metadataDocument: row.metadata_document,
      metadataFetchedAt: row.metadata_fetched_at === null ? null : Number(row.metadata_fetched_at),
    });
  }

  findById(id: number): Promise<Client | null> {
    return this.clients.findOneBy({ id });
  }

  async update(id: number, fields: Partial<Client>): Promise<void> {
    await this.clients.update({ id }, fields as never);
  }

  /** Deletes the client (its codes, tokens and consents cascade); false when there was none. */
  async deleteByClientId(clientId: string): Promise<boolean> {
    return Boolean((await this.clients.delete({ clientId })).affected);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, LessThanOrEqual, Not, Repository } from 'typeorm';
import { jsonStringArray, scopeList } from '../database/columns';
import { insertOwned } from '../database/owned-insert';
import { PreparedQuery, preparedQuery } from '../database/prepared-query';
import { params } from '../database/sql';
import { ApplicationType, Client, ClientSource, ClientType, TokenEndpointAuthMethod } from './client.entity';

/** How long a dynamically registered client may wait for a first user's consent before the purge removes it (RFC 7591 §3 leaves this to the server; docs/integrate-with-oauth.md). */
export const NEVER_AUTHORIZED_TTL_MS = 30 * 86_400_000;

/** How long the row of a client known by its metadata document stays while no user has allowed it anything. */
export const UNUSED_DOCUMENT_CLIENT_TTL_MS = 86_400_000;

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
  registration_access_token_hash: string | null;
  application_type: ApplicationType | null;
  token_endpoint_auth_method: TokenEndpointAuthMethod | null;
  client_uri: string | null;
  logo_uri: string | null;
  authorized_at: number | string | null;
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
      'SELECT id, client_id, name, type, secret_hash, redirect_uris, scopes, created_at, owner_id, id_token_signed_response_alg, verified, require_par, device_flow, ' +
        'registration_access_token_hash, application_type, token_endpoint_auth_method, client_uri, logo_uri, authorized_at, source, metadata_document, metadata_fetched_at FROM oauth_clients WHERE client_id = $1',
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
      registrationAccessTokenHash: row.registration_access_token_hash,
      applicationType: row.application_type,
      tokenEndpointAuthMethod: row.token_endpoint_auth_method,
      clientUri: row.client_uri,
      logoUri: row.logo_uri,
      authorizedAt: row.authorized_at === null ? null : Number(row.authorized_at),
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

  /** Records the first time a user authorized the client; later consents leave it as it is. */
  async markAuthorized(id: number, now: number): Promise<void> {
    await this.clients.update({ id, authorizedAt: IsNull() }, { authorizedAt: now });
  }

  /**
   * The purge (src/purge): deletes the clients registered dynamically (RFC 7591) more than
   * NEVER_AUTHORIZED_TTL_MS ago, and those known by a metadata document last fetched more than
   * UNUSED_DOCUMENT_CLIENT_TTL_MS ago, that no user ever authorized; how many. Such a client holds no consent,
   * code or user token; whatever it holds cascades with it.
   */
  async purgeNeverAuthorized(now: number): Promise<number> {
    const result = await this.clients.delete([
      { registrationAccessTokenHash: Not(IsNull()), authorizedAt: IsNull(), createdAt: LessThanOrEqual(now - NEVER_AUTHORIZED_TTL_MS) },
      // A client known by its metadata document that no user allowed: its row is written again from the
      // document at its next use, so a day is enough (anyone can serve documents: the table stays bounded).
      { source: 'metadata_document', authorizedAt: IsNull(), metadataFetchedAt: LessThanOrEqual(now - UNUSED_DOCUMENT_CLIENT_TTL_MS) },
    ]);
    return result.affected ?? 0;
  }

  /** Deletes the client (its codes, tokens and consents cascade); false when there was none. */
  async deleteByClientId(clientId: string): Promise<boolean> {
    return Boolean((await this.clients.delete({ clientId })).affected);
  }
}

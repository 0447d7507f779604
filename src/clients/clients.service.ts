import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { generateSecret, SECRET_PREFIX, sha256Hex } from '../common/crypto/secrets';
import { hasControlCharacters } from '../common/validation/no-control-characters.decorator';
import { appConfig } from '../config/configuration';
import { insertOwned } from '../database/owned-insert';
import { PreparedQuery, preparedQuery } from '../database/prepared-query';
import { jsonStringArray, scopeList } from '../database/columns';
import { Client, ClientType } from './client.entity';
import { assertValidClientName, assertValidRedirectUri, ClientValidationError } from './client-rules';

/** The public identifier prefix; the rest is 128 bits of randomness (RFC 6749 §2.2). */
export const CLIENT_ID_PREFIX = 'sp_client_';

export interface NewClient {
  name: string;
  redirectUris: string[];
  /** Already validated with parseClientScopes. */
  scopes: string[];
  type: ClientType;
  /** A fixed client_id (the demo reference client); generated otherwise. */
  clientId?: string;
  /** The algorithm of its ID tokens (docs/integrate-with-oauth.md, OpenID Connect); RS256 unless given. */
  idTokenSignedResponseAlg?: 'RS256' | 'ES256';
  /** May use the Device Authorization Grant (RFC 8628); off unless asked for. */
  deviceFlow?: boolean;
  /**
   * The user registering it in the developer portal, and how many applications they may hold: past
   * that, OwnerLimitReachedError and nothing is made. Absent for an operator's (CLI) client.
   */
  owner?: { userId: number; limit: number };
  /** Its authorization requests must be pushed first (`clients:create --require-par`, RFC 9126 §5). */
  requirePar?: boolean;
}

export class UnknownClientError extends Error {
  constructor(clientId: string) {
    super(`Unknown client: ${clientId}`);
  }
}

/**
 * Registration and lookup of OAuth clients. A confidential client's secret is returned once, at
 * creation or rotation, and stored only as its SHA-256 (SECURITY.md).
 */
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
}

@Injectable()
export class ClientsService {
  private readonly byClientId: PreparedQuery<ClientRow>;

  constructor(
    @InjectRepository(Client) private readonly clients: Repository<Client>,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    private readonly dataSource: DataSource,
  ) {
    this.byClientId = preparedQuery(
      dataSource,
      'sp_client_by_client_id',
      'SELECT id, client_id, name, type, secret_hash, redirect_uris, scopes, created_at, owner_id, id_token_signed_response_alg, verified, require_par, device_flow FROM oauth_clients WHERE client_id = $1',
    );
  }

  async create(input: NewClient): Promise<{ client: Client; secret?: string }> {
    const name = assertValidClientName(input.name);
    // A device-only application (RFC 8628) is never redirected to: it may have no redirect URI at all.
    if (input.redirectUris.length === 0 && input.deviceFlow !== true) throw new ClientValidationError('Give at least one --redirect-uri', 'redirect_uri_missing');
    for (const uri of input.redirectUris) assertValidRedirectUri(uri, this.app.publicUrl);
    const clientId = input.clientId ?? generateSecret(CLIENT_ID_PREFIX, 16);
    if (input.clientId && (await this.clients.existsBy({ clientId }))) throw new ClientValidationError(`A client with the id ${clientId} already exists`, 'client_id_taken');
    const secret = input.type === 'confidential' ? generateSecret(SECRET_PREFIX.clientSecret, 32) : undefined;
    const client = this.clients.create({
      clientId,
      name,
      type: input.type,
      secretHash: secret ? sha256Hex(secret) : null,
      redirectUris: [...new Set(input.redirectUris)],
      scopes: input.scopes,
      idTokenSignedResponseAlg: input.idTokenSignedResponseAlg ?? 'RS256',
      createdAt: Date.now(),
      ownerId: input.owner?.userId ?? null,
      // An operator's (CLI) client is verified from the start; one registered in the portal waits for
      // `clients:verify` (docs/integrate-with-oauth.md).
      verified: !input.owner,
      requirePar: input.requirePar ?? false,
      deviceFlow: input.deviceFlow === true,
    });
    if (!input.owner) return { client: await this.clients.save(client), secret };
    client.id = await insertOwned(this.dataSource, {
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
      ownerId: input.owner.userId,
      limit: input.owner.limit,
    });
    return { client, secret };
  }

  list(): Promise<Client[]> {
    return this.clients.find({ order: { id: 'ASC' } });
  }

  /** The applications a user registered in the developer portal, oldest first. */
  listOwnedBy(ownerId: number): Promise<Client[]> {
    return this.clients.find({ where: { ownerId }, order: { id: 'ASC' } });
  }

  /** Read on every client-authenticated OAuth request: one prepared statement, mapped like the entity. */
  async findByClientId(clientId: string): Promise<Client | null> {
    // Never a client id, and PostgreSQL would refuse the query (NUL): no such client.
    if (hasControlCharacters(clientId)) return null;
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
    });
  }

  findById(id: number): Promise<Client | null> {
    return this.clients.findOneBy({ id });
  }

  /** A new secret for a confidential client; the old one stops working at once. */
  async rotateSecret(clientId: string): Promise<{ client: Client; secret: string }> {
    const client = await this.findByClientId(clientId);
    if (!client) throw new UnknownClientError(clientId);
    if (client.type !== 'confidential') throw new ClientValidationError(`Client ${clientId} is public and has no secret`, 'public_client');
    const secret = generateSecret(SECRET_PREFIX.clientSecret, 32);
    await this.clients.update({ id: client.id }, { secretHash: sha256Hex(secret) });
    return { client, secret };
  }

  /**
   * The operator vouches for a client (`clients:verify`), or withdraws that (`clients:unverify`): it
   * decides what its consent page says and whether its errors are redirected to it automatically.
   * Read on every authorization request, so it applies to the next one.
   */
  async setVerified(clientId: string, verified: boolean): Promise<Client> {
    const client = await this.findByClientId(clientId);
    if (!client) throw new UnknownClientError(clientId);
    await this.clients.update({ id: client.id }, { verified });
    return Object.assign(client, { verified });
  }

  /** Deletes the client; its codes, tokens and consents go with it (the foreign keys cascade). */
  async delete(clientId: string): Promise<void> {
    const result = await this.clients.delete({ clientId });
    if (!result.affected) throw new UnknownClientError(clientId);
  }

  /** A new name and redirect URIs, under the same rules as at registration; the client keeps its id, secret and scopes. */
  async edit(client: Client, input: { name: string; redirectUris: string[] }): Promise<Client> {
    const name = assertValidClientName(input.name);
    if (input.redirectUris.length === 0 && !client.deviceFlow) throw new ClientValidationError('Give at least one redirect URI', 'redirect_uri_missing');
    for (const uri of input.redirectUris) assertValidRedirectUri(uri, this.app.publicUrl);
    const redirectUris = [...new Set(input.redirectUris)];
    await this.clients.update({ id: client.id }, { name, redirectUris } as Partial<Client>);
    return Object.assign(client, { name, redirectUris });
  }

  /** Replaces the redirect URIs and scopes of an existing client (used to keep the demo client current). */
  async updateRegistration(client: Client, redirectUris: string[], scopes: string[]): Promise<void> {
    for (const uri of redirectUris) assertValidRedirectUri(uri, this.app.publicUrl);
    await this.clients.update({ id: client.id }, { redirectUris, scopes } as Partial<Client>);
  }
}

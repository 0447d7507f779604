import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../common/clock';
import { generateSecret, SECRET_PREFIX, sha256Hex } from '../common/crypto/secrets';
import { hasControlCharacters } from '../common/validation/no-control-characters.decorator';
import { appConfig } from '../config/configuration';
import { ApplicationType, Client, ClientType, TokenEndpointAuthMethod } from './client.entity';
import { ClientsRepository } from './clients.repository';
import { assertValidClientName, assertValidClientPageUri, assertValidRedirectUri, ClientValidationError } from './client-rules';
import { FetchBudget, looksLikeClientIdUrl } from './metadata-documents/client-metadata';
import { ClientMetadataDocuments } from './metadata-documents/client-metadata-documents.service';

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
  /**
   * Registered by the client itself at `POST /oauth/register` (RFC 7591): the hash of its registration
   * access token and the metadata kept for it. Such a client is unverified, like a portal one.
   */
  registration?: DynamicRegistration;
}

/** What a dynamically registered client keeps beside the columns every client has (RFC 7591 §2). */
export interface DynamicRegistration {
  /** SHA-256 (hex) of the registration access token (RFC 7592 §1), never the token. */
  accessTokenHash: string;
  applicationType: ApplicationType;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  clientUri: string | null;
  logoUri: string | null;
}

/** The metadata RFC 7592 §2.2 replaces: every field of a registration the client chose. */
export interface RegistrationUpdate {
  name: string;
  redirectUris: string[];
  /** Already validated with parseClientScopes. */
  scopes: string[];
  deviceFlow: boolean;
  idTokenSignedResponseAlg: 'RS256' | 'ES256';
  applicationType: ApplicationType;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  clientUri: string | null;
  logoUri: string | null;
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
@Injectable()
export class ClientsService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly metadataDocuments: ClientMetadataDocuments,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    private readonly clock: Clock,
  ) {}

  async create(input: NewClient): Promise<{ client: Client; secret?: string }> {
    const name = assertValidClientName(input.name, this.app.platformName);
    // A device-only application (RFC 8628) is never redirected to: it may have no redirect URI at all.
    if (input.redirectUris.length === 0 && input.deviceFlow !== true) throw new ClientValidationError('Give at least one --redirect-uri', 'redirect_uri_missing');
    for (const uri of input.redirectUris) assertValidRedirectUri(uri, this.app.publicUrl);
    const registration = input.registration;
    if (registration?.clientUri) assertValidClientPageUri(registration.clientUri, 'client_uri');
    if (registration?.logoUri) assertValidClientPageUri(registration.logoUri, 'logo_uri');
    const clientId = input.clientId ?? generateSecret(CLIENT_ID_PREFIX, 16);
    // A URL is the client_id of a metadata document (docs/integrate-with-oauth.md), never a registered one.
    if (looksLikeClientIdUrl(clientId)) throw new ClientValidationError(`A client_id must not be a URL: ${clientId}`, 'client_id_taken');
    if (input.clientId && (await this.clients.exists(clientId))) throw new ClientValidationError(`A client with the id ${clientId} already exists`, 'client_id_taken');
    const secret = input.type === 'confidential' ? generateSecret(SECRET_PREFIX.clientSecret, 32) : undefined;
    const client = this.clients.build({
      clientId,
      name,
      type: input.type,
      secretHash: secret ? sha256Hex(secret) : null,
      redirectUris: [...new Set(input.redirectUris)],
      scopes: input.scopes,
      idTokenSignedResponseAlg: input.idTokenSignedResponseAlg ?? 'RS256',
      createdAt: this.clock.now(),
      ownerId: input.owner?.userId ?? null,
      // An operator's (CLI) client is verified from the start; one registered in the portal, or by
      // itself (RFC 7591), waits for `clients:verify` (docs/integrate-with-oauth.md).
      verified: !input.owner && !registration,
      requirePar: input.requirePar ?? false,
      deviceFlow: input.deviceFlow === true,
      registrationAccessTokenHash: registration?.accessTokenHash ?? null,
      applicationType: registration?.applicationType ?? null,
      tokenEndpointAuthMethod: registration?.tokenEndpointAuthMethod ?? null,
      clientUri: registration?.clientUri ?? null,
      logoUri: registration?.logoUri ?? null,
      authorizedAt: null,
      source: 'registered',
      metadataDocument: null,
      metadataFetchedAt: null,
    });
    if (!input.owner) return { client: await this.clients.insert(client), secret };
    client.id = await this.clients.insertOwned(client, input.owner.userId, input.owner.limit);
    return { client, secret };
  }

  list(): Promise<Client[]> {
    return this.clients.all();
  }

  /** The applications a user registered in the developer portal, oldest first. */
  listOwnedBy(ownerId: number): Promise<Client[]> {
    return this.clients.ownedBy(ownerId);
  }

  /** Read on every client-authenticated OAuth request (a prepared statement, ClientsRepository). */
  async findByClientId(clientId: string): Promise<Client | null> {
    // Never a client id, and PostgreSQL would refuse the query (NUL): no such client.
    if (hasControlCharacters(clientId)) return null;
    return this.clients.findByClientId(clientId);
  }

  /**
   * The client a request names, where a request starts (authorize, and the client authentication of
   * token, PAR, device authorization, revocation, introspection): a registered one, or, for a `client_id`
   * URL, the client of its metadata document, fetched or kept from a recent fetch (ClientMetadataDocuments;
   * ClientMetadataError when it cannot be used; a fetch is taken from `budget`). Null: no such client.
   */
  async findForRequest(clientId: string, budget: FetchBudget): Promise<Client | null> {
    if (looksLikeClientIdUrl(clientId)) return this.metadataDocuments.resolve(clientId, budget);
    return clientId.length <= 64 ? this.findByClientId(clientId) : null;
  }

  findById(id: number): Promise<Client | null> {
    return this.clients.findById(id);
  }

  /** A new secret for a confidential client; the old one stops working at once. */
  async rotateSecret(clientId: string): Promise<{ client: Client; secret: string }> {
    const client = await this.findByClientId(clientId);
    if (!client) throw new UnknownClientError(clientId);
    if (client.type !== 'confidential') throw new ClientValidationError(`Client ${clientId} is public and has no secret`, 'public_client');
    const secret = generateSecret(SECRET_PREFIX.clientSecret, 32);
    await this.clients.update(client.id, { secretHash: sha256Hex(secret) });
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
    // Its name and redirect URIs are whatever its document says at the next fetch, which no one vouched
    // for (docs/agents.md, client ID metadata documents): such a client stays unverified.
    if (verified && client.source === 'metadata_document') {
      throw new ClientValidationError(`Client ${clientId} is known by its metadata document and is always unverified; nothing changed`);
    }
    await this.clients.update(client.id, { verified });
    return Object.assign(client, { verified });
  }

  /** Deletes the client; its codes, tokens and consents go with it (the foreign keys cascade). */
  async delete(clientId: string): Promise<void> {
    if (!(await this.clients.deleteByClientId(clientId))) throw new UnknownClientError(clientId);
  }

  /**
   * A new name and redirect URIs, under the same rules as at registration; the client keeps its id, secret
   * and scopes. A verified client whose name or redirect URIs change is unverified again: the operator
   * vouched for what they saw (docs/integrate-with-oauth.md, "Verified and unverified applications").
   */
  async edit(client: Client, input: { name: string; redirectUris: string[] }): Promise<Client> {
    const name = assertValidClientName(input.name, this.app.platformName);
    if (input.redirectUris.length === 0 && !client.deviceFlow) throw new ClientValidationError('Give at least one redirect URI', 'redirect_uri_missing');
    for (const uri of input.redirectUris) assertValidRedirectUri(uri, this.app.publicUrl);
    const redirectUris = [...new Set(input.redirectUris)];
    const fields = { name, redirectUris, verified: client.verified && !changesWhatWasVouchedFor(client, { name, redirectUris }) };
    await this.clients.update(client.id, fields);
    return Object.assign(client, fields);
  }

  /**
   * RFC 7592 §2.2: the metadata of a dynamically registered client replaced, under the same rules as at
   * registration; its id, secret, registration access token and type stay.
   */
  async replaceRegistration(client: Client, update: RegistrationUpdate): Promise<Client> {
    const name = assertValidClientName(update.name, this.app.platformName);
    if (update.redirectUris.length === 0) throw new ClientValidationError('Give at least one redirect URI', 'redirect_uri_missing');
    for (const uri of update.redirectUris) assertValidRedirectUri(uri, this.app.publicUrl);
    if (update.clientUri) assertValidClientPageUri(update.clientUri, 'client_uri');
    if (update.logoUri) assertValidClientPageUri(update.logoUri, 'logo_uri');
    const fields = {
      name,
      redirectUris: [...new Set(update.redirectUris)],
      scopes: update.scopes,
      deviceFlow: update.deviceFlow,
      idTokenSignedResponseAlg: update.idTokenSignedResponseAlg,
      applicationType: update.applicationType,
      tokenEndpointAuthMethod: update.tokenEndpointAuthMethod,
      clientUri: update.clientUri,
      logoUri: update.logoUri,
    };
    const verified = client.verified && !changesWhatWasVouchedFor(client, fields);
    await this.clients.update(client.id, { ...fields, verified });
    return Object.assign(client, fields, { verified });
  }

  /** A user allowed the client something (a consent given): the first time is kept (the purge spares it). */
  markAuthorized(client: { id: number }): Promise<void> {
    return this.clients.markAuthorized(client.id, this.clock.now());
  }

  /** Replaces the redirect URIs and scopes of an existing client (used to keep the demo client current). */
  async updateRegistration(client: Client, redirectUris: string[], scopes: string[]): Promise<void> {
    for (const uri of redirectUris) assertValidRedirectUri(uri, this.app.publicUrl);
    await this.clients.update(client.id, { redirectUris, scopes });
  }
}

/**
 * Whether an edit changes what a person is shown and sent to: the name, the redirect URIs (in any order),
 * the client's pages. The operator's verification covered those, not what replaces them.
 */
function changesWhatWasVouchedFor(
  client: Pick<Client, 'name' | 'redirectUris' | 'clientUri' | 'logoUri'>,
  next: { name: string; redirectUris: string[]; clientUri?: string | null; logoUri?: string | null },
): boolean {
  const uris = (list: string[]) => [...new Set(list)].sort().join('\n');
  return (
    next.name !== client.name ||
    uris(next.redirectUris) !== uris(client.redirectUris) ||
    (next.clientUri !== undefined && (next.clientUri ?? null) !== (client.clientUri ?? null)) ||
    (next.logoUri !== undefined && (next.logoUri ?? null) !== (client.logoUri ?? null))
  );
}

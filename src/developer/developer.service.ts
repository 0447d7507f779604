import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { SecurityEventsService } from '../security-events/security-events.service';
import { ApiKey } from '../api-keys/api-key.entity';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { AccessTokenCache } from '../auth/access-token-cache';
import { Client, ClientType, CLIENT_TYPES } from '../clients/client.entity';
import { ClientRule, ClientValidationError, MAX_REDIRECT_URIS, parseClientScopes } from '../clients/client-rules';
import { ClientsService } from '../clients/clients.service';
import { hasControlCharacters } from '../common/validation/no-control-characters.decorator';
import { developerConfig } from '../config/configuration';
import { OwnerLimitReachedError } from '../database/owned-insert';

/** Why a portal form was refused: one of the CLI's registration rules, or one of the portal's own. */
export type DeveloperRule = ClientRule | 'client_type' | 'redirect_uri_count' | 'key_name_length' | 'key_name_characters';

/** A form value that breaks a rule: nothing was changed; the page says which rule, in the reader's language. */
export class DeveloperInputError extends Error {
  constructor(
    readonly rule: DeveloperRule,
    /** For `redirect_uri_not_canonical`: the form of the URI to write instead. */
    readonly canonical?: string,
  ) {
    super(`Refused: ${rule}`);
  }
}

/** The user already has as many applications or live keys as allowed (README.md, Register your application): nothing was made. */
export class DeveloperLimitError extends Error {
  constructor(
    readonly kind: 'clients' | 'api_keys',
    readonly limit: number,
  ) {
    super(`Limit reached: at most ${limit} ${kind}`);
  }
}

/**
 * The application or key does not exist or is not the user's (made by someone else, or by an operator
 * with the CLI). Both answer the same 403, so the portal never tells whether someone else's id exists.
 */
export class NotOwnedError extends Error {
  constructor() {
    super('Not yours');
  }
}

/** Who acts, for ownership and for the security events. */
export interface Actor {
  userId: number;
  ip: string | null;
}

export interface ApplicationInput {
  name: string;
  redirectUris: string[];
  type: string;
  scopes: string[];
  /** May use the Device Authorization Grant (RFC 8628): the register form's `device_flow` checkbox. */
  deviceFlow?: boolean;
}

const MAX_KEY_NAME_LENGTH = 200;
export { MAX_REDIRECT_URIS };

/**
 * The developer portal (README.md, Register your application): a user's own OAuth applications and API keys. Every change checks
 * that the user owns what it touches, keeps to DEVELOPER_MAX_CLIENTS / DEVELOPER_MAX_API_KEYS, and is
 * recorded as a security event of the account. Clients and keys an operator made with the CLI have no
 * owner, so no one reaches them here.
 */
@Injectable()
export class DeveloperService {
  constructor(
    private readonly clients: ClientsService,
    private readonly apiKeys: ApiKeysService,
    private readonly events: SecurityEventsService,
    private readonly tokenCache: AccessTokenCache,
    @Inject(developerConfig.KEY) private readonly limits: ConfigType<typeof developerConfig>,
  ) {}

  get maxClients(): number {
    return this.limits.maxClients;
  }

  get maxApiKeys(): number {
    return this.limits.maxApiKeys;
  }

  applications(userId: number): Promise<Client[]> {
    return this.clients.listOwnedBy(userId);
  }

  apiKeysOf(userId: number): Promise<ApiKey[]> {
    return this.apiKeys.listOwnedBy(userId);
  }

  /** Registers an application under the CLI's rules; a confidential one's secret is returned this once. */
  async registerApplication(actor: Actor, input: ApplicationInput): Promise<{ client: Client; secret?: string }> {
    if (!(CLIENT_TYPES as readonly string[]).includes(input.type)) throw new DeveloperInputError('client_type');
    if (input.redirectUris.length > MAX_REDIRECT_URIS) throw new DeveloperInputError('redirect_uri_count');
    const { client, secret } = await this.asInputErrors(() =>
      this.clients.create({
        name: input.name,
        redirectUris: input.redirectUris,
        scopes: parseClientScopes(input.scopes.join(' ')),
        type: input.type as ClientType,
        deviceFlow: input.deviceFlow === true,
        owner: { userId: actor.userId, limit: this.limits.maxClients },
      }),
    );
    await this.record(actor, 'client_registered', client);
    return { client, secret };
  }

  /** A new secret, returned this once; the old one is refused from the next request on. */
  async rotateSecret(actor: Actor, clientId: string): Promise<{ client: Client; secret: string }> {
    await this.ownedClient(actor, clientId);
    const rotated = await this.asInputErrors(() => this.clients.rotateSecret(clientId));
    await this.record(actor, 'client_secret_rotated', rotated.client);
    return rotated;
  }

  async editApplication(actor: Actor, clientId: string, input: { name: string; redirectUris: string[] }): Promise<Client> {
    const client = await this.ownedClient(actor, clientId);
    if (input.redirectUris.length > MAX_REDIRECT_URIS) throw new DeveloperInputError('redirect_uri_count');
    const edited = await this.asInputErrors(() => this.clients.edit(client, input));
    await this.record(actor, 'client_updated', edited);
    return edited;
  }

  /** Deletes the application with its codes, tokens and consents; its tokens are refused at once. */
  async deleteApplication(actor: Actor, clientId: string): Promise<Client> {
    const client = await this.ownedClient(actor, clientId);
    await this.clients.delete(clientId);
    // The rows are gone; this instance must not serve a cached lookup of one of their tokens either.
    this.tokenCache.revoked();
    await this.record(actor, 'client_deleted', client);
    return client;
  }

  /** A standard-tier key (partner keys stay an operator's CLI task), returned this once. */
  async createApiKey(actor: Actor, name: string): Promise<{ apiKey: ApiKey; key: string }> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > MAX_KEY_NAME_LENGTH) throw new DeveloperInputError('key_name_length');
    if (hasControlCharacters(trimmed)) throw new DeveloperInputError('key_name_characters');
    let created: { apiKey: ApiKey; key: string };
    try {
      created = await this.apiKeys.create({ name: trimmed, tier: 'standard', owner: { userId: actor.userId, limit: this.limits.maxApiKeys } });
    } catch (error) {
      if (error instanceof OwnerLimitReachedError) throw new DeveloperLimitError('api_keys', error.limit);
      throw error;
    }
    await this.events.record({ userId: actor.userId, type: 'api_key_created', ip: actor.ip, details: { apiKey: created.apiKey.name, apiKeyPrefix: created.apiKey.prefix } });
    return created;
  }

  /** Revokes one of the user's keys; revoking it again changes nothing and records nothing. */
  async revokeApiKey(actor: Actor, id: number): Promise<ApiKey> {
    const owned = Number.isSafeInteger(id) && id > 0 ? await this.apiKeys.findById(id) : null;
    if (!owned || owned.ownerId !== actor.userId) throw new NotOwnedError();
    const result = await this.apiKeys.revoke(id);
    if (!result) throw new NotOwnedError();
    if (!result.alreadyRevoked) {
      await this.events.record({ userId: actor.userId, type: 'api_key_revoked', ip: actor.ip, details: { apiKey: owned.name, apiKeyPrefix: owned.prefix } });
    }
    return result.apiKey;
  }

  private async ownedClient(actor: Actor, clientId: string): Promise<Client> {
    const client = await this.clients.findByClientId(clientId);
    if (!client || client.ownerId !== actor.userId) throw new NotOwnedError();
    return client;
  }

  private async asInputErrors<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ClientValidationError && error.rule) throw new DeveloperInputError(error.rule, error.canonical);
      if (error instanceof OwnerLimitReachedError) throw new DeveloperLimitError('clients', error.limit);
      throw error;
    }
  }

  private record(actor: Actor, type: 'client_registered' | 'client_updated' | 'client_secret_rotated' | 'client_deleted', client: Client): Promise<void> {
    return this.events.record({ userId: actor.userId, type, ip: actor.ip, details: { client: client.name, clientId: client.clientId } });
  }
}

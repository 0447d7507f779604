import { SecurityEventInput, SecurityEventsService } from '../security-events/security-events.service';
import { ApiKey } from '../api-keys/api-key.entity';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { AccessTokenCache } from '../auth/access-token-cache';
import { AccessTokenGrant } from '../auth/principal';
import { Client } from '../clients/client.entity';
import { ClientsService } from '../clients/clients.service';
import { OwnerLimitReachedError } from '../database/owned-insert';
import { DeveloperInputError, DeveloperLimitError, DeveloperService, NotOwnedError } from './developer.service';

/**
 * The portal's decisions over small in-memory stores that keep what they are given, so that each test
 * checks what the service left behind (the applications, keys, events and cached grants) and what it
 * answered, not which calls it made. The same rules on the real database: test/developer/developer-service.e2e-spec.ts.
 */
describe('DeveloperService', () => {
  const client = (id: number, clientId: string, ownerId: number | null) =>
    Object.assign(new Client(), { id, clientId, name: `App ${id}`, type: 'confidential', ownerId, redirectUris: ['https://app.example/cb'], scopes: ['profile'] });
  const actor = { userId: 7, ip: '192.0.2.1' };
  const grant: AccessTokenGrant = { tokenId: 1, userId: 9, clientId: 1, scopes: ['profile'], expiresAt: 10_000, jkt: null, audience: null };

  function build(options: { clientLimit?: number; keyLimit?: number } = {}) {
    const clients = new Map<string, Client>([
      ['sp_client_mine', client(1, 'sp_client_mine', 7)],
      ['sp_client_theirs', client(2, 'sp_client_theirs', 8)],
      ['sp_client_ops', client(3, 'sp_client_ops', null)],
    ]);
    const keys = new Map<number, ApiKey>([[5, Object.assign(new ApiKey(), { id: 5, name: 'Theirs', prefix: 'sp_key_their', tier: 'standard', ownerId: 8, revokedAt: null })]]);
    const secrets = new Map<string, string>([['sp_client_mine', 'sp_cs_old']]);
    const events: SecurityEventInput[] = [];
    const clientLimit = options.clientLimit ?? 2;
    const keyLimit = options.keyLimit ?? 3;
    const clientsService = {
      findByClientId: async (id: string) => clients.get(id) ?? null,
      create: async (input: { name: string; type: string; redirectUris: string[]; scopes: string[]; owner: { userId: number; limit: number } }) => {
        if ([...clients.values()].filter((c) => c.ownerId === input.owner.userId).length >= input.owner.limit) throw new OwnerLimitReachedError(input.owner.limit);
        const made = Object.assign(client(clients.size + 1, `sp_client_new${clients.size}`, input.owner.userId), { name: input.name, type: input.type, redirectUris: input.redirectUris, scopes: input.scopes });
        clients.set(made.clientId, made);
        return { client: made, secret: input.type === 'confidential' ? 'sp_cs_first' : undefined };
      },
      rotateSecret: async (id: string) => (secrets.set(id, 'sp_cs_new'), { client: clients.get(id)!, secret: 'sp_cs_new' }),
      edit: async (c: Client, input: { name: string; redirectUris: string[] }) => Object.assign(c, input),
      delete: async (id: string) => void clients.delete(id),
    };
    const apiKeysService = {
      create: async (input: { name: string; tier: string; owner: { userId: number; limit: number } }) => {
        if ([...keys.values()].filter((k) => k.ownerId === input.owner.userId && k.revokedAt === null).length >= input.owner.limit) throw new OwnerLimitReachedError(input.owner.limit);
        const apiKey = Object.assign(new ApiKey(), { id: keys.size + 10, name: input.name, prefix: 'sp_key_abcde', tier: input.tier, ownerId: input.owner.userId, revokedAt: null });
        keys.set(apiKey.id, apiKey);
        return { apiKey, key: 'sp_key_secret' };
      },
      findById: async (id: number) => keys.get(id) ?? null,
      revoke: async (id: number) => {
        const apiKey = keys.get(id);
        if (!apiKey) return null;
        const alreadyRevoked = apiKey.revokedAt !== null;
        apiKey.revokedAt ??= 1;
        return { apiKey, alreadyRevoked };
      },
    };
    const cache = new AccessTokenCache({ tokenCacheTtlMs: 60_000 } as never);
    cache.set('token-of-mine', grant, cache.generation, 0);
    const sut = new DeveloperService(
      clientsService as unknown as ClientsService,
      apiKeysService as unknown as ApiKeysService,
      { record: async (event: SecurityEventInput) => void events.push(event) } as unknown as SecurityEventsService,
      cache,
      { maxClients: clientLimit, maxApiKeys: keyLimit },
    );
    const snapshot = () => JSON.stringify({ clients: [...clients.entries()], keys: [...keys.entries()], secrets: [...secrets.entries()] });
    return { sut, clients, keys, secrets, events, cache, snapshot };
  }

  it.each(['sp_client_theirs', 'sp_client_ops', 'sp_client_unknown'])("refuses %s as not the user's and changes nothing", async (clientId) => {
    const { sut, events, cache, snapshot } = build();
    const before = snapshot();
    await expect(sut.rotateSecret(actor, clientId)).rejects.toBeInstanceOf(NotOwnedError);
    await expect(sut.editApplication(actor, clientId, { name: 'x', redirectUris: ['https://x.example/cb'] })).rejects.toBeInstanceOf(NotOwnedError);
    await expect(sut.deleteApplication(actor, clientId)).rejects.toBeInstanceOf(NotOwnedError);
    expect(snapshot()).toBe(before);
    expect(events).toEqual([]);
    expect(cache.get('token-of-mine', 1)).toEqual(grant);
  });

  it("returns the new secret once and records the rotation with the application's name and public id, never the secret", async () => {
    const { sut, secrets, events } = build();
    const rotated = await sut.rotateSecret(actor, 'sp_client_mine');
    expect(rotated.secret).toBe('sp_cs_new');
    expect(rotated.client.clientId).toBe('sp_client_mine');
    expect(secrets.get('sp_client_mine')).toBe('sp_cs_new');
    expect(events).toEqual([{ userId: 7, type: 'client_secret_rotated', ip: '192.0.2.1', details: { client: 'App 1', clientId: 'sp_client_mine' } }]);
    expect(JSON.stringify(events)).not.toContain('sp_cs_');
  });

  it('deletes the application, forgets every cached token grant and records the deletion', async () => {
    const { sut, clients, cache, events } = build();
    const deleted = await sut.deleteApplication(actor, 'sp_client_mine');
    expect(deleted.clientId).toBe('sp_client_mine');
    expect([...clients.keys()]).toEqual(['sp_client_theirs', 'sp_client_ops']);
    expect(cache.get('token-of-mine', 1)).toBeUndefined();
    expect(events).toEqual([{ userId: 7, type: 'client_deleted', ip: '192.0.2.1', details: { client: 'App 1', clientId: 'sp_client_mine' } }]);
  });

  it('registers an application owned by the user, and past the configured limit refuses with that limit, storing nothing', async () => {
    const { sut, clients, events } = build({ clientLimit: 2 });
    const input = { name: 'App', redirectUris: ['https://app.example/cb'], type: 'public', scopes: ['profile'] };
    const made = await sut.registerApplication(actor, input);
    expect(made.secret).toBeUndefined();
    expect(clients.get(made.client.clientId)).toMatchObject({ ownerId: 7, type: 'public', name: 'App' });
    expect(events.map((event) => event.type)).toEqual(['client_registered']);
    const count = clients.size;
    await expect(sut.registerApplication(actor, input)).rejects.toEqual(new DeveloperLimitError('clients', 2));
    expect(clients.size).toBe(count);
    expect(events).toHaveLength(1);
  });

  it('refuses an unknown type or too many redirect URIs before anything is stored', async () => {
    const { sut, events, snapshot } = build();
    const before = snapshot();
    const input = { name: 'App', redirectUris: ['https://app.example/cb'], type: 'confidential', scopes: ['profile'] };
    await expect(sut.registerApplication(actor, { ...input, type: 'partner' })).rejects.toEqual(new DeveloperInputError('client_type'));
    const many = Array.from({ length: 11 }, (_, i) => `https://app.example/cb${i}`);
    await expect(sut.registerApplication(actor, { ...input, redirectUris: many })).rejects.toEqual(new DeveloperInputError('redirect_uri_count'));
    await expect(sut.editApplication(actor, 'sp_client_mine', { name: 'x', redirectUris: many })).rejects.toEqual(new DeveloperInputError('redirect_uri_count'));
    expect(snapshot()).toBe(before);
    expect(events).toEqual([]);
  });

  it('creates only standard keys under the trimmed name, up to the key limit', async () => {
    const { sut, keys, events } = build({ keyLimit: 1 });
    const created = await sut.createApiKey(actor, '  CI  ');
    expect(created.key).toBe('sp_key_secret');
    expect(keys.get(created.apiKey.id)).toMatchObject({ name: 'CI', tier: 'standard', ownerId: 7, revokedAt: null });
    expect(events).toEqual([{ userId: 7, type: 'api_key_created', ip: '192.0.2.1', details: { apiKey: 'CI', apiKeyPrefix: 'sp_key_abcde' } }]);
    await expect(sut.createApiKey(actor, 'Second')).rejects.toEqual(new DeveloperLimitError('api_keys', 1));
    await expect(sut.createApiKey(actor, '   ')).rejects.toEqual(new DeveloperInputError('key_name_length'));
    await expect(sut.createApiKey(actor, 'bad\u0000name')).rejects.toEqual(new DeveloperInputError('key_name_characters'));
    expect([...keys.values()].filter((key) => key.ownerId === 7)).toHaveLength(1);
  });

  it("refuses to revoke someone else's key, and revoking one's own twice records it once", async () => {
    const { sut, keys, events } = build();
    await expect(sut.revokeApiKey(actor, 5)).rejects.toBeInstanceOf(NotOwnedError);
    expect(keys.get(5)!.revokedAt).toBeNull();
    const { apiKey } = await sut.createApiKey(actor, 'CI');
    await sut.revokeApiKey(actor, apiKey.id);
    await sut.revokeApiKey(actor, apiKey.id);
    expect(keys.get(apiKey.id)!.revokedAt).not.toBeNull();
    expect(events.map((event) => event.type)).toEqual(['api_key_created', 'api_key_revoked']);
  });
});

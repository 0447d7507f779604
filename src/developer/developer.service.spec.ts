import { SecurityEventsService } from '../security-events/security-events.service';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { AccessTokenCache } from '../auth/access-token-cache';
import { Client } from '../clients/client.entity';
import { ClientsService } from '../clients/clients.service';
import { OwnerLimitReachedError } from '../database/owned-insert';
import { DeveloperInputError, DeveloperLimitError, DeveloperService, NotOwnedError } from './developer.service';

describe('DeveloperService', () => {
  const mine = Object.assign(new Client(), { id: 1, clientId: 'sp_client_mine', name: 'Mine', type: 'confidential', ownerId: 7, redirectUris: [], scopes: ['profile'] });
  const theirs = Object.assign(new Client(), { ...mine, id: 2, clientId: 'sp_client_theirs', ownerId: 8 });
  const operators = Object.assign(new Client(), { ...mine, id: 3, clientId: 'sp_client_ops', ownerId: null });
  const actor = { userId: 7, ip: '192.0.2.1' };

  function build() {
    const clients = {
      findByClientId: jest.fn(async (id: string) => [mine, theirs, operators].find((c) => c.clientId === id) ?? null),
      create: jest.fn(),
      rotateSecret: jest.fn(async () => ({ client: mine, secret: 'sp_cs_new' })),
      edit: jest.fn(),
      delete: jest.fn(async () => undefined),
    };
    const apiKeys = { create: jest.fn(), findById: jest.fn(), revoke: jest.fn() };
    const events = { record: jest.fn(async () => undefined) };
    const cache = { revoked: jest.fn() };
    const sut = new DeveloperService(
      clients as unknown as ClientsService,
      apiKeys as unknown as ApiKeysService,
      events as unknown as SecurityEventsService,
      cache as unknown as AccessTokenCache,
      { maxClients: 2, maxApiKeys: 3 },
    );
    return { sut, clients, apiKeys, events, cache };
  }

  it.each(['sp_client_theirs', 'sp_client_ops', 'sp_client_unknown'])('refuses %s as not the user\'s and touches nothing', async (clientId) => {
    const { sut, clients, events } = build();
    await expect(sut.rotateSecret(actor, clientId)).rejects.toBeInstanceOf(NotOwnedError);
    await expect(sut.editApplication(actor, clientId, { name: 'x', redirectUris: ['https://x.example/cb'] })).rejects.toBeInstanceOf(NotOwnedError);
    await expect(sut.deleteApplication(actor, clientId)).rejects.toBeInstanceOf(NotOwnedError);
    expect(clients.rotateSecret).not.toHaveBeenCalled();
    expect(clients.edit).not.toHaveBeenCalled();
    expect(clients.delete).not.toHaveBeenCalled();
    expect(events.record).not.toHaveBeenCalled();
  });

  it('records a rotation with the application\'s name and public id, never the secret', async () => {
    const { sut, events } = build();
    await expect(sut.rotateSecret(actor, 'sp_client_mine')).resolves.toMatchObject({ secret: 'sp_cs_new' });
    expect(events.record).toHaveBeenCalledWith({ userId: 7, type: 'client_secret_rotated', ip: '192.0.2.1', details: { client: 'Mine', clientId: 'sp_client_mine' } });
    expect(JSON.stringify(events.record.mock.calls)).not.toContain('sp_cs_');
  });

  it('forgets cached token lookups when it deletes an application', async () => {
    const { sut, clients, cache } = build();
    await sut.deleteApplication(actor, 'sp_client_mine');
    expect(clients.delete).toHaveBeenCalledWith('sp_client_mine');
    expect(cache.revoked).toHaveBeenCalledTimes(1);
  });

  it('registers under the configured limit and says so past it', async () => {
    const { sut, clients } = build();
    clients.create.mockRejectedValueOnce(new OwnerLimitReachedError(2));
    const input = { name: 'App', redirectUris: ['https://app.example/cb'], type: 'public', scopes: ['profile'] };
    await expect(sut.registerApplication(actor, input)).rejects.toEqual(new DeveloperLimitError('clients', 2));
    expect(clients.create).toHaveBeenCalledWith(expect.objectContaining({ owner: { userId: 7, limit: 2 }, type: 'public' }));
  });

  it('refuses an unknown type or too many redirect URIs before anything is stored', async () => {
    const { sut, clients } = build();
    const input = { name: 'App', redirectUris: ['https://app.example/cb'], type: 'confidential', scopes: ['profile'] };
    await expect(sut.registerApplication(actor, { ...input, type: 'partner' })).rejects.toEqual(new DeveloperInputError('client_type'));
    const many = Array.from({ length: 11 }, (_, i) => `https://app.example/cb${i}`);
    await expect(sut.registerApplication(actor, { ...input, redirectUris: many })).rejects.toEqual(new DeveloperInputError('redirect_uri_count'));
    expect(clients.create).not.toHaveBeenCalled();
  });

  it('creates only standard keys, with the key limit, and refuses a key of someone else', async () => {
    const { sut, apiKeys } = build();
    apiKeys.create.mockResolvedValue({ apiKey: { name: 'CI', prefix: 'sp_key_abcde' }, key: 'sp_key_secret' });
    await sut.createApiKey(actor, '  CI  ');
    expect(apiKeys.create).toHaveBeenCalledWith({ name: 'CI', tier: 'standard', owner: { userId: 7, limit: 3 } });
    apiKeys.findById.mockResolvedValue({ id: 5, ownerId: 8, revokedAt: null });
    await expect(sut.revokeApiKey(actor, 5)).rejects.toBeInstanceOf(NotOwnedError);
    expect(apiKeys.revoke).not.toHaveBeenCalled();
  });
});

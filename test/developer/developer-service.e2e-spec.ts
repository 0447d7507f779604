import { DataSource } from 'typeorm';
import { SecurityEventsService } from '../../src/security-events/security-events.service';
import { ApiKeysService } from '../../src/api-keys/api-keys.service';
import { ClientsService } from '../../src/clients/clients.service';
import { DeveloperInputError, DeveloperLimitError, DeveloperService, NotOwnedError } from '../../src/developer/developer.service';
import { http } from '../helpers/http';
import { basicAuth } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';
import { bearer, createTestUser, issueTestToken, TestUser } from '../helpers/tokens';

/**
 * The developer portal's rules below its pages (README.md, Register your application), on the real database: ownership, the
 * limits under concurrency, secrets that stop at once, deletion that kills the tokens.
 */
describe('developer portal service', () => {
  let t: TestApp;
  let sut: DeveloperService;
  let alice: TestUser;
  let bob: TestUser;
  const app = (name = 'Weather app') => ({ name, redirectUris: ['https://weather.example/cb'], type: 'confidential', scopes: ['profile'] });

  beforeAll(async () => {
    t = await startTestApp({ DEVELOPER_MAX_CLIENTS: '3', DEVELOPER_MAX_API_KEYS: '2' });
    sut = t.app.get(DeveloperService);
    alice = await createTestUser(t.app);
    bob = await createTestUser(t.app);
  });
  afterAll(() => t?.close());

  const as = (user: TestUser) => ({ userId: user.id, ip: '203.0.113.7' });

  it('registers an application its owner alone sees; CLI-made clients and keys appear on no one\'s list', async () => {
    await t.app.get(ClientsService).create({ name: 'Operator app', redirectUris: ['https://ops.example/cb'], scopes: ['profile'], type: 'confidential' });
    await t.app.get(ApiKeysService).create({ name: 'Operator key', tier: 'partner' });
    const { client, secret } = await sut.registerApplication(as(alice), app());
    expect(secret).toMatch(/^sp_cs_/);
    expect(client.ownerId).toBe(alice.id);
    expect((await sut.applications(alice.id)).map((c) => c.clientId)).toEqual([client.clientId]);
    expect(await sut.applications(bob.id)).toEqual([]);
    expect(await sut.apiKeysOf(bob.id)).toEqual([]);
    const events = await t.app.get(SecurityEventsService).recent(alice.id);
    expect(events[0]).toMatchObject({ type: 'client_registered', ip: '203.0.113.7', details: { client: 'Weather app', clientId: client.clientId } });
    await sut.deleteApplication(as(alice), client.clientId);
  });

  it('refuses what the CLI refuses, by rule, and makes nothing', async () => {
    const cases: Array<[Partial<ReturnType<typeof app>>, string]> = [
      [{ redirectUris: ['http://weather.example/cb'] }, 'redirect_uri_http'],
      [{ redirectUris: ['https://weather.example/cb#x'] }, 'redirect_uri_fragment'],
      [{ redirectUris: [] }, 'redirect_uri_missing'],
      [{ redirectUris: Array.from({ length: 11 }, (_, i) => `https://weather.example/cb${i}`) }, 'redirect_uri_count'],
      [{ scopes: ['admin'] }, 'scope_unknown'],
      [{ scopes: [] }, 'scope_missing'],
      [{ type: 'partner' }, 'client_type'],
      [{ name: ' ' }, 'name_length'],
      [{ name: 'a\u0000b' }, 'name_characters'],
    ];
    for (const [change, rule] of cases) {
      await expect(sut.registerApplication(as(alice), { ...app(), ...change })).rejects.toEqual(new DeveloperInputError(rule as never));
    }
    expect(await sut.applications(alice.id)).toEqual([]);
  });

  it('keeps to DEVELOPER_MAX_CLIENTS when many registrations race', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => sut.registerApplication(as(bob), app(`Racer ${i}`))));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    for (const o of outcomes.filter((o) => o.status === 'rejected')) expect((o as PromiseRejectedResult).reason).toBeInstanceOf(DeveloperLimitError);
    expect(await sut.applications(bob.id)).toHaveLength(3);
    // Deleting one frees its place.
    const [first] = await sut.applications(bob.id);
    await sut.deleteApplication(as(bob), first.clientId);
    await expect(sut.registerApplication(as(bob), app('Next'))).resolves.toBeDefined();
    await expect(sut.registerApplication(as(bob), app('One too many'))).rejects.toEqual(new DeveloperLimitError('clients', 3));
  });

  it('keeps to DEVELOPER_MAX_API_KEYS for live keys when creations race; a revoked key frees its place', async () => {
    const user = await createTestUser(t.app);
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => sut.createApiKey(as(user), `key ${i}`)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    const keys = await sut.apiKeysOf(user.id);
    expect(keys.map((k) => k.tier)).toEqual(['standard', 'standard']);
    await sut.revokeApiKey(as(user), keys[0].id);
    const { key } = await sut.createApiKey(as(user), 'replacement');
    await expect(sut.createApiKey(as(user), 'one too many')).rejects.toEqual(new DeveloperLimitError('api_keys', 2));
    expect((await http(t.url, '/api/public/v1/industries', { headers: { 'x-api-key': key } })).status).toBe(200);
    const revoked = await sut.revokeApiKey(as(user), (await sut.apiKeysOf(user.id))[2].id);
    expect((await http(t.url, '/api/public/v1/industries', { headers: { 'x-api-key': key } })).status).toBe(401);
    expect(revoked.revokedAt).not.toBeNull();
    const types = (await t.app.get(SecurityEventsService).recent(user.id)).map((e) => e.type);
    expect(types.filter((type) => type === 'api_key_created')).toHaveLength(3);
    expect(types.filter((type) => type === 'api_key_revoked')).toHaveLength(2);
  });

  it('changes nothing of another user\'s, nor an operator\'s, and says only 403', async () => {
    const { client } = await sut.registerApplication(as(alice), app('Alice only'));
    const { apiKey } = await sut.createApiKey(as(alice), 'alice key');
    const operatorClient = (await t.app.get(ClientsService).create({ name: 'Ops', redirectUris: ['https://ops.example/cb'], scopes: ['profile'], type: 'confidential' })).client;
    const operatorKey = (await t.app.get(ApiKeysService).create({ name: 'Ops key', tier: 'standard' })).apiKey;
    for (const clientId of [client.clientId, operatorClient.clientId, 'sp_client_unknown']) {
      await expect(sut.rotateSecret(as(bob), clientId)).rejects.toBeInstanceOf(NotOwnedError);
      await expect(sut.editApplication(as(bob), clientId, { name: 'Mine now', redirectUris: ['https://evil.example/cb'] })).rejects.toBeInstanceOf(NotOwnedError);
      await expect(sut.deleteApplication(as(bob), clientId)).rejects.toBeInstanceOf(NotOwnedError);
    }
    for (const id of [apiKey.id, operatorKey.id, 999_999]) await expect(sut.revokeApiKey(as(bob), id)).rejects.toBeInstanceOf(NotOwnedError);
    const rows = await t.app.get(DataSource).query(`SELECT name, secret_hash FROM oauth_clients WHERE client_id IN ('${client.clientId}', '${operatorClient.clientId}') ORDER BY id`);
    expect(rows.map((r: { name: string }) => r.name)).toEqual(['Alice only', 'Ops']);
    expect((await t.app.get(ApiKeysService).findById(apiKey.id))?.revokedAt).toBeNull();
    expect((await t.app.get(ApiKeysService).findById(operatorKey.id))?.revokedAt).toBeNull();
  });

  it('rotates a secret: the old one is refused at once, the new one works', async () => {
    const owner = await createTestUser(t.app);
    const { client, secret } = await sut.registerApplication(as(owner), app('Rotating'));
    const introspect = (s: string) =>
      http(t.url, '/oauth/introspect', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(client.clientId, s) },
        body: 'token=unknown',
      });
    expect((await introspect(secret!)).status).toBe(200);
    const rotated = await sut.rotateSecret(as(owner), client.clientId);
    expect(rotated.secret).not.toBe(secret);
    expect((await introspect(secret!)).status).toBe(401);
    expect((await introspect(rotated.secret)).status).toBe(200);
    await expect(sut.rotateSecret(as(owner), (await sut.registerApplication(as(owner), { ...app('SPA'), type: 'public' })).client.clientId)).rejects.toEqual(
      new DeveloperInputError('public_client'),
    );
  });

  it('edits name and redirect URIs under the same rules', async () => {
    const owner = await createTestUser(t.app);
    const { client } = await sut.registerApplication(as(owner), app('Before'));
    const edited = await sut.editApplication(as(owner), client.clientId, { name: ' After ', redirectUris: ['https://after.example/cb', 'http://127.0.0.1:8080/cb'] });
    expect(edited).toMatchObject({ name: 'After', redirectUris: ['https://after.example/cb', 'http://127.0.0.1:8080/cb'], scopes: ['profile'] });
    await expect(sut.editApplication(as(owner), client.clientId, { name: 'x', redirectUris: ['ftp://after.example'] })).rejects.toEqual(new DeveloperInputError('redirect_uri_scheme'));
    expect((await t.app.get(ClientsService).findByClientId(client.clientId))?.redirectUris).toEqual(['https://after.example/cb', 'http://127.0.0.1:8080/cb']);
  });

  it('deletes an application with its tokens: they are refused at once', async () => {
    const owner = await createTestUser(t.app);
    const { client } = await sut.registerApplication(as(owner), app('Doomed'));
    const user = await createTestUser(t.app);
    const token = await issueTestToken(t.app, { scopes: ['profile'], user, clientId: client.id });
    expect((await http(t.url, '/api/public/v1/me', { headers: bearer(token.token) })).status).toBe(200);
    await sut.deleteApplication(as(owner), client.clientId);
    expect((await http(t.url, '/api/public/v1/me', { headers: bearer(token.token) })).status).toBe(401);
    expect(await t.app.get(ClientsService).findByClientId(client.clientId)).toBeNull();
  });
});

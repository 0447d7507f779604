import type { FastifyRequest } from 'fastify';
import { Client } from '../../clients/client.entity';
import { ClientsService } from '../../clients/clients.service';
import { sha256Hex } from '../../common/crypto/secrets';
import { OAuthError } from '../../common/errors/oauth-error';
import { ClientAuthenticationService, parseBasicAuthorization } from './client-authentication';
import { MetadataFetchBudgets } from './metadata-fetch-budgets';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('parseBasicAuthorization (RFC 6749 §2.3.1)', () => {
  it('decodes id and secret', () => {
    expect(parseBasicAuthorization(basic('client', 'secret'))).toEqual({ clientId: 'client', clientSecret: 'secret' });
  });

  it('form-decodes both parts: + is a space, percent escapes are decoded', () => {
    expect(parseBasicAuthorization(basic('my+client%3A1', 'p%40ss+word%2B'))).toEqual({ clientId: 'my client:1', clientSecret: 'p@ss word+' });
  });

  it('splits at the first colon only', () => {
    expect(parseBasicAuthorization(basic('id', 'a:b'))).toEqual({ clientId: 'id', clientSecret: 'a:b' });
  });

  it('accepts the scheme in any case and an empty secret', () => {
    expect(parseBasicAuthorization(`bAsIc ${Buffer.from('id:').toString('base64')}`)).toEqual({ clientId: 'id', clientSecret: '' });
  });

  it.each([
    ['another scheme', 'Bearer abc'],
    ['no credentials', 'Basic '],
    ['not base64', 'Basic ***'],
    ['no colon', `Basic ${Buffer.from('idonly').toString('base64')}`],
    ['an empty id', `Basic ${Buffer.from(':secret').toString('base64')}`],
    ['a broken percent escape', `Basic ${Buffer.from('id:%zz').toString('base64')}`],
  ])('refuses %s', (_case, header) => {
    expect(parseBasicAuthorization(header)).toBeNull();
  });
});

describe('ClientAuthenticationService', () => {
  const confidential = { id: 1, clientId: 'conf', type: 'confidential', secretHash: sha256Hex('s3cret') } as Client;
  const publicClient = { id: 2, clientId: 'pub', type: 'public', secretHash: null } as Client;
  const find = async (id: string) => [confidential, publicClient].find((c) => c.clientId === id) ?? null;
  const clients = { findByClientId: find, findForRequest: find } as unknown as ClientsService;
  const sut = new ClientAuthenticationService(clients, { of: () => ({ take: async () => undefined }) } as unknown as MetadataFetchBudgets);
  const request = (authorization?: string) => ({ headers: authorization ? { authorization } : {} }) as FastifyRequest;

  async function failure(promise: Promise<unknown>): Promise<OAuthError> {
    const error = await promise.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    return error as OAuthError;
  }

  it('authenticates client_secret_basic, client_secret_post and none', async () => {
    await expect(sut.authenticate(request(basic('conf', 's3cret')), {})).resolves.toMatchObject({ method: 'client_secret_basic', client: confidential });
    await expect(sut.authenticate(request(), { client_id: 'conf', client_secret: 's3cret' })).resolves.toMatchObject({ method: 'client_secret_post' });
    await expect(sut.authenticate(request(), { client_id: 'pub' })).resolves.toMatchObject({ method: 'none', client: publicClient });
  });

  it('answers a wrong Basic secret 401 invalid_client with a Basic challenge', async () => {
    const error = await failure(sut.authenticate(request(basic('conf', 'wrong')), {}));
    expect(error).toMatchObject({ error: 'invalid_client', status: 401, headers: { 'www-authenticate': 'Basic realm="oauth"' } });
  });

  it('answers a wrong posted secret 401 invalid_client without a challenge', async () => {
    const error = await failure(sut.authenticate(request(), { client_id: 'conf', client_secret: 'wrong' }));
    expect(error).toMatchObject({ error: 'invalid_client', status: 401, headers: {} });
  });

  it('refuses two methods in one request as invalid_request', async () => {
    const error = await failure(sut.authenticate(request(basic('conf', 's3cret')), { client_id: 'conf', client_secret: 's3cret' }));
    expect(error).toMatchObject({ error: 'invalid_request', status: 400 });
  });

  it('refuses a confidential client that sends no secret', async () => {
    expect(await failure(sut.authenticate(request(), { client_id: 'conf' }))).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses a public client that sends a secret', async () => {
    expect(await failure(sut.authenticate(request(), { client_id: 'pub', client_secret: 'x' }))).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses unknown clients and requests without any client', async () => {
    expect(await failure(sut.authenticate(request(), { client_id: 'nobody' }))).toMatchObject({ error: 'invalid_client' });
    expect(await failure(sut.authenticate(request(), {}))).toMatchObject({ error: 'invalid_client', status: 401 });
  });
});

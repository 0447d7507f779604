import { Test } from '@nestjs/testing';
import { getRepositoryToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DatabaseInfo } from '../../database/database-info';
import { Transactions } from '../../database/transaction';
import { AccessTokenCache } from '../../auth/access-token-cache';
import { Client } from '../../clients/client.entity';
import { generateSecret, SECRET_PREFIX, sha256Hex } from '../../common/crypto/secrets';
import { OAuthError } from '../../common/errors/oauth-error';
import { authConfig } from '../../config/configuration';
import { MIGRATIONS } from '../../database/migrations';
import { MetricsService } from '../../metrics/metrics.service';
import { IdTokenService } from '../../oidc/id-token.service';
import { DeviceAuthorizationsService } from '../device/device-authorizations.service';
import { Clock } from '../../common/clock';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { User } from '../../users/user.entity';
import { AccessToken } from '../entities/access-token.entity';
import { AuthorizationCode } from '../entities/authorization-code.entity';
import { RefreshToken } from '../entities/refresh-token.entity';
import { s256Challenge } from '../pkce';
import { Consent } from '../entities/consent.entity';
import { AuthorizationCodesRepository } from '../authorize/authorization-codes.repository';
import { ConsentsRepository } from '../authorize/consents.repository';
import { TokensRepository } from './tokens.repository';
import { TokenService } from './token.service';
import { betterSqlite3 } from '../../database/sqlite-driver';
import { ProtectedResources } from '../../auth/protected-resources';
import { UsersRepository } from '../../users/users.repository';

const REDIRECT_URI = 'https://app.example/callback';
const VERIFIER = 'v'.repeat(43);

/**
 * The token service on a real schema (SQLite in memory, every migration), built by Nest's testing
 * module; the configuration, the token cache and the metrics are stand-ins, so the spec sets the
 * lifetimes and sees when the cache is told to forget and a reuse is counted.
 */
describe('TokenService', () => {
  let dataSource: DataSource;
  let sut: TokenService;
  const revoked = jest.fn();
  const refreshFamilyRevokedForReuse = jest.fn();
  let client: Client;
  let publicClient: Client;
  let userId: number;

  beforeAll(async () => {
    dataSource = await new DataSource({
      type: 'better-sqlite3',
      driver: betterSqlite3(),
      database: ':memory:',
      entities: [User, Client, AuthorizationCode, RefreshToken, AccessToken, Consent],
      migrations: MIGRATIONS,
    }).initialize();
    await dataSource.runMigrations();
    const moduleRef = await Test.createTestingModule({
      providers: [
        TokenService,
        TokensRepository,
        AuthorizationCodesRepository,
        UsersRepository,
        ConsentsRepository,
        AccessTokenCache,
        MetricsService,
        DatabaseInfo,
        Transactions,
        { provide: DataSource, useValue: dataSource },
        ...[AuthorizationCode, AccessToken, RefreshToken, Consent, User].map((entity) => ({ provide: getRepositoryToken(entity), useValue: dataSource.getRepository(entity) })),
        { provide: authConfig.KEY, useValue: {} },
        { provide: SecurityEventsService, useValue: { record: jest.fn() } },
        { provide: IdTokenService, useValue: { issue: jest.fn() } },
        // The device grant has its own suite (test/oauth/device-flow.e2e-spec.ts).
        { provide: DeviceAuthorizationsService, useValue: { poll: jest.fn() } },
        Clock,
        { provide: ProtectedResources, useValue: new ProtectedResources({ publicUrl: 'http://localhost' } as never) },
      ],
    })
      .overrideProvider(authConfig.KEY)
      .useValue({ accessTokenTtlSeconds: 600, refreshTokenTtlSeconds: 86_400, refreshTokenGracePeriodSeconds: 0 })
      .overrideProvider(AccessTokenCache)
      .useValue({ revoked })
      .overrideProvider(MetricsService)
      .useValue({ refreshFamilyRevokedForReuse })
      .compile();
    sut = moduleRef.get(TokenService);

    const now = Date.now();
    userId = (await dataSource.getRepository(User).save({ email: 'ada@example.com', name: 'Ada', passwordHash: 'x', createdAt: now })).id;
    const clients = dataSource.getRepository(Client);
    const base = { redirectUris: [REDIRECT_URI], scopes: ['profile', 'read:startups'], createdAt: now, ownerId: null };
    client = await clients.save({ ...base, clientId: 'confidential', name: 'C', type: 'confidential', secretHash: sha256Hex('s') });
    publicClient = await clients.save({ ...base, clientId: 'public', name: 'P', type: 'public', secretHash: null });
  });
  afterAll(() => dataSource.destroy());
  beforeEach(() => {
    revoked.mockClear();
    refreshFamilyRevokedForReuse.mockClear();
  });

  async function issueCode(options: { challenge?: string | null; expiresAt?: number } = {}): Promise<string> {
    const code = generateSecret(SECRET_PREFIX.authorizationCode);
    await dataSource.getRepository(AuthorizationCode).save({
      codeHash: sha256Hex(code),
      clientId: client.id,
      userId,
      redirectUri: REDIRECT_URI,
      scope: ['profile', 'read:startups'],
      codeChallenge: options.challenge === undefined ? s256Challenge(VERIFIER) : options.challenge,
      codeChallengeMethod: options.challenge === null ? null : 'S256',
      expiresAt: options.expiresAt ?? Date.now() + 60_000,
      consumedAt: null,
      createdAt: Date.now(),
    });
    return code;
  }

  const redeem = (code: string, extra: Record<string, string> = {}) =>
    sut.grant({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER, ...extra }, client);
  const errorOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: OAuthError) => [error.error, error.description]);

  it('redeems a code once for an access and a refresh token of its scope (RFC 6749 §4.1.3)', async () => {
    const tokens = await redeem(await issueCode());
    expect(tokens).toEqual({
      access_token: expect.stringMatching(/^sp_at_/),
      token_type: 'Bearer',
      expires_in: 600,
      refresh_token: expect.stringMatching(/^sp_rt_/),
      scope: 'profile read:startups',
    });
  });

  it('refuses a code used twice and revokes what it granted, forgetting cached tokens first', async () => {
    const code = await issueCode();
    const first = await redeem(code);
    expect(await errorOf(redeem(code))).toEqual(['invalid_grant', expect.any(String)]);
    expect(revoked).toHaveBeenCalled();
    const row = await dataSource.getRepository(AccessToken).findOneByOrFail({ tokenHash: sha256Hex(first.access_token) });
    expect(row.revokedAt).not.toBeNull();
  });

  it('checks PKCE (RFC 7636 §4.6) and the redirect URI before anything is written', async () => {
    const code = await issueCode();
    expect(await errorOf(redeem(code, { code_verifier: 'w'.repeat(43) }))).toEqual(['invalid_grant', 'code_verifier does not match the code_challenge.']);
    expect(await errorOf(redeem(code, { redirect_uri: 'https://app.example/other' }))).toEqual(['invalid_grant', 'redirect_uri does not match the authorization request.']);
    // Neither attempt consumed the code.
    expect((await redeem(code)).token_type).toBe('Bearer');
  });

  it('rotates a refresh token, and a retired one coming back revokes the whole family (RFC 9700 §4.14.2)', async () => {
    const issued = await redeem(await issueCode());
    const rotated = await sut.grant({ grant_type: 'refresh_token', refresh_token: issued.refresh_token!, scope: 'profile' }, client);
    expect(rotated.scope).toBe('profile');
    expect(await errorOf(sut.grant({ grant_type: 'refresh_token', refresh_token: issued.refresh_token! }, client))).toEqual(['invalid_grant', expect.any(String)]);
    expect(revoked).toHaveBeenCalled();
    expect(refreshFamilyRevokedForReuse).toHaveBeenCalledTimes(1);
    expect(await errorOf(sut.grant({ grant_type: 'refresh_token', refresh_token: rotated.refresh_token! }, client))).toEqual([
      'invalid_grant',
      'The refresh token has been revoked.',
    ]);
  });

  it('issues client_credentials tokens only to confidential clients, without a refresh token or a user scope (RFC 6749 §4.4)', async () => {
    expect(await sut.grant({ grant_type: 'client_credentials' }, client)).toEqual({
      access_token: expect.stringMatching(/^sp_at_/),
      token_type: 'Bearer',
      expires_in: 600,
      scope: 'read:startups',
    });
    expect(await errorOf(sut.grant({ grant_type: 'client_credentials', scope: 'profile' }, client))).toEqual(['invalid_scope', expect.any(String)]);
    expect(await errorOf(sut.grant({ grant_type: 'client_credentials' }, publicClient))).toEqual(['unauthorized_client', expect.any(String)]);
  });

  it('answers a missing or unknown grant type in RFC 6749 §5.2 terms', async () => {
    expect(await errorOf(sut.grant({}, client))).toEqual(['invalid_request', 'The grant_type parameter is missing.']);
    expect(await errorOf(sut.grant({ grant_type: 'password' }, client))).toEqual(['unsupported_grant_type', expect.any(String)]);
  });
});

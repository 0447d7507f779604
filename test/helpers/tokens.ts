import { randomBytes, randomUUID } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Client } from '../../src/clients/client.entity';
import { generateSecret, SECRET_PREFIX, sha256Hex } from '../../src/common/crypto/secrets';
import { AccessToken } from '../../src/oauth/entities/access-token.entity';
import { UsersService } from '../../src/users/users.service';

export interface TestUser {
  id: number;
  name: string;
  email: string;
}

export interface TestToken {
  /** The access token to send as `Authorization: Bearer …`. */
  token: string;
  tokenId: number;
  user: TestUser;
  /** `oauth_clients.id` of the client the token belongs to. */
  clientId: number;
}

/** A user, created through the real UsersService (so the row is what sign-up would write). */
export async function createTestUser(app: INestApplication, input: Partial<{ name: string; email: string }> = {}): Promise<TestUser> {
  const suffix = randomBytes(4).toString('hex');
  const user = await app.get(UsersService, { strict: false }).create({
    email: input.email ?? `user-${suffix}@example.com`,
    name: input.name ?? `Test User ${suffix}`,
    password: `password-${suffix}`,
  });
  return { id: user.id, name: user.name, email: user.email };
}

/** A confidential OAuth client row; returns its `oauth_clients.id`. */
export async function createTestClient(app: INestApplication, scopes: string[] = ['profile', 'read:startups']): Promise<number> {
  const client = await app.get(DataSource).getRepository(Client).save({
    clientId: `test-${randomBytes(6).toString('hex')}`,
    name: 'Test client',
    type: 'confidential',
    secretHash: sha256Hex(generateSecret(SECRET_PREFIX.clientSecret)),
    redirectUris: ['http://127.0.0.1/callback'],
    scopes,
    createdAt: Date.now(),
  });
  return client.id;
}

/**
 * An access token as the authorization server would store it (only its SHA-256), written straight into
 * `oauth_access_tokens`. A new user and client are created unless given.
 */
export async function issueTestToken(
  app: INestApplication,
  options: { scopes: string[]; expiresInMs?: number; revoked?: boolean; user?: TestUser; clientId?: number },
): Promise<TestToken> {
  const user = options.user ?? (await createTestUser(app));
  const clientId = options.clientId ?? (await createTestClient(app));
  const token = generateSecret(SECRET_PREFIX.accessToken);
  const now = Date.now();
  const row = await app.get(DataSource).getRepository(AccessToken).save({
    tokenHash: sha256Hex(token),
    clientId,
    userId: user.id,
    scope: options.scopes,
    familyId: randomUUID(),
    refreshTokenId: null,
    expiresAt: now + (options.expiresInMs ?? 3_600_000),
    revokedAt: options.revoked ? now : null,
    createdAt: now,
  });
  return { token, tokenId: row.id, user, clientId };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

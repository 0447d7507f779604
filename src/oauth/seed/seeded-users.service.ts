import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Client } from '../../clients/client.entity';
import { ClientsService } from '../../clients/clients.service';
import { Clock } from '../../common/clock';
import { canonicalEmailOrThrow } from '../../common/text/email-address';
import { authConfig } from '../../config/configuration';
import { PasswordHasher } from '../../users/password-hasher';
import { Transactions } from '../../database/transaction';
import { newFamilyId, TokensRepository } from '../token/tokens.repository';
import { SeededUsersRepository } from './seeded-users.repository';

export const MAX_SEEDED_USERS = 100_000;
const BATCH_ROWS = 500;

/** The deterministic address of seeded user `n` (1-based): RFC 2606 reserves `.invalid`, so no mail can reach it. */
export function seededUserEmail(n: number): string {
  // In its canonical form like every stored address (src/common/text/email-address.ts).
  return canonicalEmailOrThrow(`seed-user-${String(n).padStart(6, '0')}@example.invalid`);
}

export interface SeededGrant {
  user_id: number;
  access_token: string;
  refresh_token: string;
}

export interface SeedUsersResult {
  usersAdded: number;
  /** Seeded users 1..N, whether added now or by an earlier run. */
  usersSeeded: number;
  /** One fresh grant per seeded user when a client was named; each secret is shown this once. */
  grants?: SeededGrant[];
}

export class UnknownSeedClientError extends Error {}

/**
 * Users for load and integration tests, and optionally a grant for each of them: what a real user gets
 * after authorizing a client, without the browser round trip.
 *
 * Safe on a production database: seeded users have addresses under `.invalid` and a password nobody
 * knows (256 random bits, hashed like any password and then forgotten), so nobody can sign in as them.
 * Tokens are issued only to a registered client the operator names, with that client's scopes, stored
 * as hashes like every other token and printed once. Re-running tops up the users (1..N) and issues new
 * grants; earlier grants stay valid until they expire or are revoked.
 */
@Injectable()
export class SeededUsersService {
  constructor(
    private readonly transactions: Transactions,
    private readonly users: SeededUsersRepository,
    private readonly clients: ClientsService,
    private readonly tokens: TokensRepository,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
    private readonly clock: Clock,
  ) {}

  /** The client to issue grants to; checked before anything is written. */
  async client(clientId: string): Promise<Client> {
    const client = await this.clients.findByClientId(clientId);
    if (!client) throw new UnknownSeedClientError(`Unknown client: ${clientId}`);
    return client;
  }

  async seed(options: { users: number; tokensFor?: Client }): Promise<SeedUsersResult> {
    const count = options.users;
    if (!Number.isSafeInteger(count) || count < 0 || count > MAX_SEEDED_USERS) {
      throw new RangeError(`The number of users must be a whole number from 0 to ${MAX_SEEDED_USERS}`);
    }
    const client = options.tokensFor;

    // One hash for every seeded user: the password is random and discarded, so sharing it reveals nothing.
    const passwordHash = await PasswordHasher.hash(randomBytes(32).toString('base64url'));
    const emails = Array.from({ length: count }, (_, i) => seededUserEmail(i + 1));
    const now = this.clock.now();

    return this.transactions.run(async (tx) => {
      let usersAdded = 0;
      for (let start = 0; start < emails.length; start += BATCH_ROWS) {
        const batch = emails.slice(start, start + BATCH_ROWS).map((email, i) => ({ email, name: `Seed User ${start + i + 1}` }));
        usersAdded += await this.users.insertMissing(tx, batch, passwordHash, now);
      }
      if (!client) return { usersAdded, usersSeeded: count };

      const ids = new Map<string, number>();
      for (let start = 0; start < emails.length; start += BATCH_ROWS) {
        for (const [email, id] of await this.users.idsByEmail(tx, emails.slice(start, start + BATCH_ROWS))) ids.set(email, id);
      }
      const grants: SeededGrant[] = [];
      for (const email of emails) {
        const userId = ids.get(email)!;
        const tokens = await this.tokens.issue(tx, {
          clientId: client.id,
          userId,
          grantScope: client.scopes,
          accessScope: client.scopes,
          familyId: newFamilyId(),
          authorizationCodeId: null,
          authTime: null,
          amr: null,
          acr: null,
          // The load scenarios call the public API, which a grant naming no resource is for.
          grantResource: null,
          accessResource: null,
          now,
          accessTtlSeconds: this.auth.accessTokenTtlSeconds,
          refreshTtlSeconds: this.auth.refreshTokenTtlSeconds,
          accessJkt: null,
          refreshJkt: null,
        });
        grants.push({ user_id: userId, access_token: tokens.accessToken, refresh_token: tokens.refreshToken });
      }
      return { usersAdded, usersSeeded: count, grants };
    });
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessTokenCache } from '../../auth/access-token-cache';
import { inDisplayOrder } from '../../auth/scopes';
import { inTransaction, statements } from '../../database/transaction';
import { revokeUserGrant } from '../../oauth/token/token-store';
import { SecurityEventsService } from '../events/security-events.service';

/** One application the user has granted, as Connected apps shows it (README.md, Your account). */
export interface ConnectedApp {
  /** The public client_id. */
  clientId: string;
  name: string;
  /** Every scope the user granted it, in the catalogue's order. */
  scopes: string[];
  /** When access was first given (epoch ms). */
  firstGrantedAt: number;
  /** When it last received a token for the user, or null if it never did. */
  lastUsedAt: number | null;
}

interface ConsentRow {
  client_id: string;
  name: string;
  scope: string;
  created_at: number | string;
  last_used_at: number | string | null;
}

/**
 * Connected apps (README.md, Your account): the clients a user granted and has not revoked, read from the consents
 * they gave, and Revoke access, which takes back everything that client holds for the user.
 */
@Injectable()
export class ConnectedAppsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tokenCache: AccessTokenCache,
    private readonly events: SecurityEventsService,
  ) {}

  async list(userId: number): Promise<ConnectedApp[]> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<ConsentRow>(
      `SELECT c.client_id, c.name, cs.scope, cs.created_at, cs.last_used_at
       FROM oauth_consents cs JOIN oauth_clients c ON c.id = cs.client_id
       WHERE cs.user_id = ${sql.p(1)}`,
      [userId],
    );
    const apps = new Map<string, ConnectedApp & { granted: Set<string> }>();
    for (const row of rows) {
      const createdAt = Number(row.created_at);
      const lastUsedAt = row.last_used_at === null ? null : Number(row.last_used_at);
      let app = apps.get(row.client_id);
      if (!app) {
        app = { clientId: row.client_id, name: row.name, scopes: [], granted: new Set(), firstGrantedAt: createdAt, lastUsedAt };
        apps.set(row.client_id, app);
      }
      for (const scope of row.scope.split(' ').filter(Boolean)) app.granted.add(scope);
      app.firstGrantedAt = Math.min(app.firstGrantedAt, createdAt);
      if (lastUsedAt !== null && (app.lastUsedAt === null || lastUsedAt > app.lastUsedAt)) app.lastUsedAt = lastUsedAt;
    }
    return [...apps.values()]
      .map(({ granted, ...app }) => ({ ...app, scopes: inDisplayOrder([...granted]) }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.clientId.localeCompare(b.clientId));
  }

  /**
   * Revoke access: every access and refresh token of this user for this client, its codes not yet
   * redeemed and the consents, in one transaction. This instance's token cache is emptied before the
   * answer; other instances' caches forget within TOKEN_CACHE_TTL_MS (none when the cache is off).
   * Resolves with the application, or null when the user has not granted it (nothing is changed).
   */
  async revoke(userId: number, clientId: string, ip: string): Promise<ConnectedApp | null> {
    const app = (await this.list(userId)).find((candidate) => candidate.clientId === clientId);
    if (!app) return null;
    const now = Date.now();
    const revoked = await inTransaction(this.dataSource, async (tx) => {
      const [client] = (await tx.run<{ id: number | string }>(`SELECT id FROM oauth_clients WHERE client_id = ${tx.p(1)}`, [clientId])).rows;
      if (!client) return false;
      await revokeUserGrant(tx, userId, Number(client.id), now);
      return true;
    });
    if (!revoked) return null;
    this.tokenCache.revoked();
    await this.events.record({ userId, type: 'access_revoked', ip, details: { client: app.name, clientId: app.clientId } });
    return app;
  }
}

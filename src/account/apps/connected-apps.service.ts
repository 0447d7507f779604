import { Injectable } from '@nestjs/common';
import { AccessTokenCache } from '../../auth/access-token-cache';
import { Clock } from '../../common/clock';
import { inDisplayOrder } from '../../common/scopes';
import { Transactions } from '../../database/transaction';
import { AuthorizationCodesRepository } from '../../oauth/authorize/authorization-codes.repository';
import { ConsentsRepository } from '../../oauth/authorize/consents.repository';
import { DeviceAuthorizationsRepository } from '../../oauth/device/device-authorizations.repository';
import { TokensRepository } from '../../oauth/token/tokens.repository';
import { SecurityEventsService } from '../../security-events/security-events.service';

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

/**
 * Connected apps (README.md, Your account): the clients a user granted and has not revoked, read from the consents
 * they gave, and Revoke access, which takes back everything that client holds for the user.
 */
@Injectable()
export class ConnectedAppsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly tokenCache: AccessTokenCache,
    private readonly events: SecurityEventsService,
    private readonly consents: ConsentsRepository,
    private readonly tokens: TokensRepository,
    private readonly codes: AuthorizationCodesRepository,
    private readonly devices: DeviceAuthorizationsRepository,
    private readonly clock: Clock,
  ) {}

  async list(userId: number): Promise<ConnectedApp[]> {
    return (await this.granted(userId)).map(({ clientRowId: _, ...app }) => app);
  }

  /** The connected apps, each with its client's row id. */
  private async granted(userId: number): Promise<Array<ConnectedApp & { clientRowId: number }>> {
    const apps = new Map<string, ConnectedApp & { clientRowId: number; granted: Set<string> }>();
    for (const row of await this.consents.ofUser(userId)) {
      const { createdAt, lastUsedAt } = row;
      let app = apps.get(row.clientId);
      if (!app) {
        app = { clientRowId: row.clientRowId, clientId: row.clientId, name: row.name, scopes: [], granted: new Set(), firstGrantedAt: createdAt, lastUsedAt };
        apps.set(row.clientId, app);
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
   * redeemed, its approved device requests not yet collected and the consents, in one transaction. This instance's token cache is emptied before the
   * answer; other instances' caches forget within TOKEN_CACHE_TTL_MS (none when the cache is off).
   * Resolves with the application, or null when the user has not granted it (nothing is changed).
   */
  async revoke(userId: number, clientId: string, ip: string): Promise<ConnectedApp | null> {
    const granted = (await this.granted(userId)).find((candidate) => candidate.clientId === clientId);
    if (!granted) return null;
    const { clientRowId: id, ...app } = granted;
    const now = this.clock.now();
    await this.transactions.run(async (tx) => {
      // Codes and device requests first, as in WaysInService.endAll: a redemption under way is waited
      // for, and the tokens it issued are then revoked with the rest.
      await this.codes.retireOfUser(tx, userId, id, now);
      // A device approved but not yet collected would otherwise get tokens the user just took back.
      await this.devices.denyUnredeemedOfUserAndClient(tx, userId, id);
      await this.tokens.revokeOfUser(tx, userId, id, now);
      await this.consents.forget(tx, userId, id);
    });
    this.tokenCache.revoked();
    await this.events.record({ userId, type: 'access_revoked', ip, details: { client: app.name, clientId: app.clientId }, at: now });
    return app;
  }
}

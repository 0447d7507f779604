import { Injectable } from '@nestjs/common';
import { formatScope, isSubset } from '../../common/scopes';
import { Clock } from '../../common/clock';
import { ClientsService } from '../../clients/clients.service';
import { ConsentsRepository } from './consents.repository';

/** The consents users gave, per user, client and scope set (docs/integrate-with-oauth.md). */
@Injectable()
export class ConsentsService {
  constructor(
    private readonly consents: ConsentsRepository,
    private readonly clock: Clock,
    private readonly clients: ClientsService,
  ) {}

  /**
   * Whether the user already allowed this client these scopes. A remembered consent to a wider set
   * covers a narrower request too: the user has already granted more than is asked.
   */
  async isRemembered(userId: number, clientId: number, scopes: string[]): Promise<boolean> {
    const sets = await this.consents.scopeSets(userId, clientId);
    return sets.some((set) => isSubset(scopes, set.split(' ')));
  }

  /** Whether the user has allowed this client anything before (and not revoked it since). */
  hasAny(userId: number, clientId: number): Promise<boolean> {
    return this.consents.exists(userId, clientId);
  }

  /** The user allowed it: remembered, and the client counts as authorized from now on (a dynamically registered one is then never purged as unused). */
  async remember(userId: number, clientId: number, scopes: string[]): Promise<void> {
    await this.consents.remember(userId, clientId, formatScope(scopes), this.clock.now());
    await this.clients.markAuthorized({ id: clientId });
  }
}

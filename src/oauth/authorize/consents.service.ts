import { Injectable } from '@nestjs/common';
import { formatScope, isSubset } from '../../common/scopes';
import { Clock } from '../../common/clock';
import { matchesRegisteredRedirectUri } from '../../clients/client-rules';
import { Client } from '../../clients/client.entity';
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
   * Whether the user already allowed this client these scopes, for this redirect URI. A remembered
   * consent to a wider set covers a narrower request too: the user has already granted more than is
   * asked. It covers the redirect URIs the client had when it was first given, and those it was given
   * through since (a loopback one on any port, as the registration does, RFC 8252 §7.3): a redirect URI
   * the client gained later, with a leaked registration access token for instance, gets a code only
   * after the user saw a consent page sent from it.
   */
  async isRemembered(userId: number, clientId: number, scopes: string[], redirectUri: string): Promise<boolean> {
    const consents = await this.consents.scopeSets(userId, clientId);
    return consents.some((consent) => isSubset(scopes, consent.scope.split(' ')) && matchesRegisteredRedirectUri(consent.redirectUris, redirectUri));
  }

  /** Whether the user has allowed this client anything for this redirect URI before (and not revoked it since). */
  async hasAny(userId: number, clientId: number, redirectUri: string): Promise<boolean> {
    const consents = await this.consents.scopeSets(userId, clientId);
    return consents.some((consent) => matchesRegisteredRedirectUri(consent.redirectUris, redirectUri));
  }

  /**
   * The user allowed it, through `redirectUri` (none for a device): remembered for the client's redirect
   * URIs of now, or, given again, for those it covered and this one; and the client counts as authorized
   * from now on (a dynamically registered one is then never purged as unused).
   */
  async remember(userId: number, client: Pick<Client, 'id' | 'redirectUris'>, scopes: string[], redirectUri: string | null): Promise<void> {
    const scope = formatScope(scopes);
    const before = (await this.consents.scopeSets(userId, client.id)).find((consent) => consent.scope === scope)?.redirectUris ?? client.redirectUris;
    const redirectUris = redirectUri === null || before.includes(redirectUri) ? before : [...before, redirectUri];
    await this.consents.remember(userId, client.id, scope, redirectUris, this.clock.now());
    await this.clients.markAuthorized(client);
  }
}

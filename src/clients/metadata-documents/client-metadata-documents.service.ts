import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../common/clock';
import { appConfig, authConfig } from '../../config/configuration';
import { Client } from '../client.entity';
import { ClientsRepository } from '../clients.repository';
import { cacheSeconds, ClientMetadataError, FetchBudget, MetadataFetchBudgetError, parseClientIdUrl, readClientMetadata } from './client-metadata';
import { MetadataDocumentFetcher, MetadataFetchError } from './metadata-document-fetcher';

/** How many documents one instance keeps; past it, the one used least recently goes first. */
export const MAX_CACHED_DOCUMENTS = 1000;

/**
 * Clients identified by a Client ID Metadata Document (draft-ietf-oauth-client-id-metadata-document;
 * docs/integrate-with-oauth.md, "Clients identified by a URL"). `resolve` answers the client of a
 * `client_id` URL: its document fetched and checked, or kept from a recent fetch, and its row in
 * `oauth_clients` (which its consents, codes and tokens reference) brought up to date.
 *
 * - Kept per instance as the document's Cache-Control says, between 5 minutes and 24 hours, by the
 *   injected Clock, at most MAX_CACHED_DOCUMENTS (least recently used out first). A failed fetch or an
 *   invalid document is never kept (draft §4.2): the next request fetches again, and the stored row is
 *   not used meanwhile, so nothing is ever redirected to a URI of a document that failed.
 * - Requests for the same URL while it is being fetched wait for that one fetch.
 * - Every fetch is first taken from the budget of the request that needs it (FetchBudget; the OAuth
 *   endpoints count CLIENT_METADATA_FETCHES_PER_HOUR per address, MetadataFetchBudgets): past it, nothing
 *   is fetched, so that no one can make the service fetch, or store the rows of, documents without end
 *   (SECURITY.md, "SSRF through client metadata").
 */
@Injectable()
export class ClientMetadataDocuments {
  private readonly fresh = new Map<string, number>();
  private readonly inFlight = new Map<string, Promise<Client>>();

  constructor(
    private readonly clients: ClientsRepository,
    private readonly fetcher: MetadataDocumentFetcher,
    private readonly clock: Clock,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
  ) {}

  /**
   * The client of this `client_id` URL; ClientMetadataError with the reason when its document cannot be
   * used (MetadataFetchBudgetError when it would have to be fetched and `budget` has no fetch left).
   */
  async resolve(clientId: string, budget: FetchBudget): Promise<Client> {
    const { url, loopback } = parseClientIdUrl(clientId, this.auth.clientMetadataAllowLoopback);
    const until = this.fresh.get(clientId);
    if (until !== undefined && until > this.clock.now()) {
      const client = await this.clients.findByClientId(clientId);
      if (client?.source === 'metadata_document') {
        // Used now: the last to be dropped.
        this.fresh.delete(clientId);
        this.fresh.set(clientId, until);
        return client;
      }
    }
    this.fresh.delete(clientId);
    const pending = this.inFlight.get(clientId);
    // A fetch under way is joined; refused for its starter's budget, this caller tries under its own.
    if (pending) return pending.catch((error: unknown) => (error instanceof MetadataFetchBudgetError ? this.resolve(clientId, budget) : Promise.reject(error)));
    const fetching = this.fetchWithinBudget(clientId, url, loopback, budget).finally(() => this.inFlight.delete(clientId));
    this.inFlight.set(clientId, fetching);
    return fetching;
  }

  private async fetchWithinBudget(clientId: string, url: URL, loopback: boolean, budget: FetchBudget): Promise<Client> {
    await budget.take();
    return this.fetchAndSave(clientId, url, loopback);
  }

  private async fetchAndSave(clientId: string, url: URL, loopback: boolean): Promise<Client> {
    let fetched;
    try {
      fetched = await this.fetcher.fetch(url, loopback);
    } catch (error) {
      if (error instanceof MetadataFetchError) throw new ClientMetadataError(`${error.message[0].toUpperCase()}${error.message.slice(1)}.`);
      throw error;
    }
    const metadata = readClientMetadata(fetched.body, clientId, url, { publicUrl: this.app.publicUrl, platformName: this.app.platformName });
    const now = this.clock.now();
    await this.clients.saveMetadataDocumentClient({
      clientId,
      name: metadata.name,
      redirectUris: metadata.redirectUris,
      scopes: metadata.scopes,
      document: JSON.stringify(fetched.body),
      fetchedAt: now,
    });
    const client = await this.clients.findByClientId(clientId);
    if (client?.source !== 'metadata_document') throw new ClientMetadataError('This client_id cannot be used for a client metadata document.');
    this.remember(clientId, now + cacheSeconds(fetched.cacheControl) * 1000);
    return client;
  }

  private remember(clientId: string, until: number): void {
    this.fresh.delete(clientId);
    this.fresh.set(clientId, until);
    while (this.fresh.size > MAX_CACHED_DOCUMENTS) this.fresh.delete(this.fresh.keys().next().value!);
  }
}

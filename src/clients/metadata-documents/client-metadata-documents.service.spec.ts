import { Clock } from '../../common/clock';
import { Client } from '../client.entity';
import { ClientsRepository } from '../clients.repository';
import { cacheSeconds, FetchBudget, MetadataFetchBudgetError } from './client-metadata';
import { ClientMetadataDocuments, MAX_CACHED_DOCUMENTS } from './client-metadata-documents.service';
import { MetadataDocumentFetcher } from './metadata-document-fetcher';

/** The service over a repository held in a map and a fetcher that serves a valid document for any URL, counting fetches. */
function service() {
  const rows = new Map<string, Client>();
  const fetched: string[] = [];
  const repository = {
    saveMetadataDocumentClient: async (fields: { clientId: string; name: string; redirectUris: string[]; scopes: string[] }) => {
      rows.set(fields.clientId, Object.assign(new Client(), { id: rows.size + 1, ...fields, source: 'metadata_document' }));
    },
    findByClientId: async (clientId: string) => rows.get(clientId) ?? null,
  } as unknown as ClientsRepository;
  const fetcher = {
    fetch: async (url: URL) => {
      fetched.push(url.href);
      return { body: { client_id: url.href, redirect_uris: ['https://agent.example/cb'] }, cacheControl: 'max-age=3600' };
    },
  } as unknown as MetadataDocumentFetcher;
  const clock = { now: () => 1_000_000 } as Clock;
  const sut = new ClientMetadataDocuments(repository, fetcher, clock, { publicUrl: 'https://as.example', platformName: 'Startup Platform' } as never, {
    clientMetadataAllowLoopback: false,
  } as never);
  return { sut, fetched };
}

/** Every fetch within the budget: the budget itself is the e2e suite's (test/oauth/client-metadata-documents.e2e-spec.ts). */
const unlimited: FetchBudget = { take: async () => undefined };

describe('ClientMetadataDocuments', () => {
  it(`keeps at most ${MAX_CACHED_DOCUMENTS} documents, dropping the one used least recently`, async () => {
    const { sut, fetched } = service();
    const url = (i: number) => `https://agent-${i}.example/client.json`;
    for (let i = 0; i < MAX_CACHED_DOCUMENTS; i++) await sut.resolve(url(i), unlimited);
    // Used again: now the most recent.
    await sut.resolve(url(0), unlimited);
    expect(fetched).toHaveLength(MAX_CACHED_DOCUMENTS);
    await sut.resolve(url(MAX_CACHED_DOCUMENTS), unlimited);
    // The least recently used (1) went; 0 stayed.
    await sut.resolve(url(0), unlimited);
    expect(fetched).toHaveLength(MAX_CACHED_DOCUMENTS + 1);
    await sut.resolve(url(1), unlimited);
    expect(fetched).toHaveLength(MAX_CACHED_DOCUMENTS + 2);
  });

  it('lets a caller that joined a fetch refused for its starter\'s budget fetch under its own', async () => {
    const { sut, fetched } = service();
    const clientId = 'https://agent.example/client.json';
    let refuse!: () => void;
    const spent: FetchBudget = { take: () => new Promise((_, reject) => (refuse = () => reject(new MetadataFetchBudgetError(600)))) };
    const starter = sut.resolve(clientId, spent);
    // Joins the fetch under way, whose budget is still being asked.
    const joiner = sut.resolve(clientId, unlimited);
    refuse();
    await expect(starter).rejects.toBeInstanceOf(MetadataFetchBudgetError);
    expect((await joiner).clientId).toBe(clientId);
    expect(fetched).toEqual([clientId]);
  });
});

describe('cacheSeconds', () => {
  it.each([
    [undefined, 300],
    ['no-store', 300],
    ['no-cache, max-age=3600', 300],
    ['max-age=0', 300],
    ['max-age=60', 300],
    ['public, max-age=3600', 3600],
    ['max-age="7200"', 7200],
    ['max-age=86400', 86400],
    ['max-age=31536000', 86400],
    ['max-age=abc', 300],
  ])('keeps a document whose Cache-Control is %j for %i seconds', (header, seconds) => {
    expect(cacheSeconds(header)).toBe(seconds);
  });
});

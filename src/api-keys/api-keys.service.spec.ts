import { DataSource, Repository } from 'typeorm';
import { Clock } from '../common/clock';
import { sha256Hex } from '../common/crypto/secrets';
import { ApiKey } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

const KEY = 'sp_key_' + 'k'.repeat(43);

describe('ApiKeysService.authenticate', () => {
  let row: Record<string, unknown>;
  let query: jest.Mock;
  let sut: ApiKeysService;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_700_000_000_000 });
    row = { id: 4, name: 'Mobile', tier: 'partner', key_hash: sha256Hex(KEY), last_used_at: null, revoked_at: null };
    query = jest.fn(async (sql: string) => (sql.startsWith('SELECT') ? [row] : []));
    sut = new ApiKeysService(new ApiKeysRepository({} as Repository<ApiKey>, { query, options: { type: 'better-sqlite3' } } as unknown as DataSource), new Clock());
  });
  afterEach(() => jest.useRealTimers());

  const updates = () => query.mock.calls.filter(([sql]) => (sql as string).startsWith('UPDATE'));

  it('finds a live key by the hash of the key', async () => {
    expect(await sut.authenticate(KEY)).toEqual({ id: 4, name: 'Mobile', tier: 'partner' });
    expect(query.mock.calls[0][1]).toEqual([sha256Hex(KEY)]);
  });

  it('refuses revoked, unknown and malformed keys, the malformed without a query', async () => {
    row.revoked_at = Date.now() - 1;
    expect(await sut.authenticate(KEY)).toBeNull();
    query.mockResolvedValueOnce([]);
    expect(await sut.authenticate('sp_key_' + 'x'.repeat(43))).toBeNull();
    query.mockClear();
    expect(await sut.authenticate('not-a-key')).toBeNull();
    expect(query).not.toHaveBeenCalled();
  });

  it('records the last use at most once a minute', async () => {
    for (let i = 0; i < 5; i++) await sut.authenticate(KEY);
    expect(updates()).toHaveLength(1);
    expect(updates()[0][1]).toEqual([Date.now(), 4]);

    jest.advanceTimersByTime(59_000);
    await sut.authenticate(KEY);
    expect(updates()).toHaveLength(1);
    jest.advanceTimersByTime(1_000);
    await sut.authenticate(KEY);
    expect(updates()).toHaveLength(2);
  });

  it('does not write when another instance recorded a use within the minute', async () => {
    row.last_used_at = Date.now() - 10_000;
    await sut.authenticate(KEY);
    expect(updates()).toHaveLength(0);
  });
});

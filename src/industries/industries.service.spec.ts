import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { IndustriesRepository } from './industries.repository';
import { AppError } from '../common/errors/app-error';
import { INDUSTRIES_CACHE_TTL_MS, IndustriesService } from './industries.service';

describe('IndustriesService', () => {
  let rows: Array<{ id: number; name: string }>;
  let query: jest.Mock;
  let sut: IndustriesService;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_700_000_000_000 });
    rows = [
      { id: 2, name: 'Edtech' },
      { id: 1, name: 'Fintech' },
    ];
    query = jest.fn(async () => rows.map((r) => ({ ...r })));
    sut = new IndustriesService(new IndustriesRepository({ query } as unknown as DataSource), new Clock());
  });
  afterEach(() => jest.useRealTimers());

  it('serves the list and single industries from one query', async () => {
    expect(await sut.list()).toEqual(rows);
    expect(await sut.findById(1)).toEqual({ id: 1, name: 'Fintech' });
    expect((await sut.listBody()).json).toBe(JSON.stringify({ data: rows }));
    expect(query).toHaveBeenCalledTimes(1);
  });

  it('shares one query between concurrent first requests', async () => {
    await Promise.all([sut.list(), sut.list(), sut.findById(2), sut.listBody()]);
    expect(query).toHaveBeenCalledTimes(1);
  });

  it('reads again once the snapshot is older than the TTL', async () => {
    await sut.list();
    rows.push({ id: 3, name: 'Gaming' });
    jest.advanceTimersByTime(INDUSTRIES_CACHE_TTL_MS - 1);
    expect(await sut.list()).toHaveLength(2);
    jest.advanceTimersByTime(1);
    expect(await sut.list()).toHaveLength(3);
    expect(query).toHaveBeenCalledTimes(2);
  });

  it('reads again right after invalidate()', async () => {
    await sut.list();
    rows.push({ id: 3, name: 'Gaming' });
    sut.invalidate();
    expect(await sut.findById(3)).toEqual({ id: 3, name: 'Gaming' });
  });

  it('answers an unknown id NOT_FOUND', async () => {
    await expect(sut.findById(99)).rejects.toEqual(new AppError('NOT_FOUND'));
  });

  it('does not keep a failed read', async () => {
    query.mockRejectedValueOnce(new Error('connection lost'));
    await expect(sut.list()).rejects.toThrow('connection lost');
    expect(await sut.list()).toEqual(rows);
  });
});

import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../database/migrations';
import { betterSqlite3 } from '../database/sqlite-driver';
import { User } from '../users/user.entity';
import { Clock } from '../common/clock';
import { SecurityEvent } from './security-event.entity';
import { SecurityEventsRepository } from './security-events.repository';
import { SECURITY_EVENT_RETENTION_MS, SecurityEventsService } from './security-events.service';

const T0 = Date.UTC(2026, 0, 2);

/**
 * The service on a real schema (SQLite in memory, every migration): what it stores, what the account
 * page reads back, what it logs, and what the purge leaves.
 */
describe('SecurityEventsService', () => {
  let dataSource: DataSource;
  let sut: SecurityEventsService;
  let userId: number;
  let lines: unknown[][];

  beforeEach(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', driver: betterSqlite3(), database: ':memory:', entities: [SecurityEvent, User], migrations: MIGRATIONS }).initialize();
    await dataSource.runMigrations();
    userId = (await dataSource.getRepository(User).save({ email: 'ada@example.com', name: 'Ada', passwordHash: 'x', createdAt: T0 })).id;
    sut = new SecurityEventsService(new SecurityEventsRepository(dataSource.getRepository(SecurityEvent)), new Clock());
    lines = [];
    jest.spyOn(Logger.prototype, 'log').mockImplementation((...args: unknown[]) => void lines.push(args));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await dataSource.destroy();
  });

  const rows = () => dataSource.getRepository(SecurityEvent).find({ order: { id: 'ASC' } });

  it('stores the event and writes one structured log line with the same facts', async () => {
    await sut.record({ userId, type: 'access_revoked', ip: '203.0.113.9', details: { client: 'Acme', clientId: 'acme' }, at: T0 });

    expect(await rows()).toEqual([{ id: expect.any(Number), userId, type: 'access_revoked', ip: '203.0.113.9', details: '{"client":"Acme","clientId":"acme"}', createdAt: T0 }]);
    expect(lines).toEqual([[{ securityEvent: 'access_revoked', userId, ip: '203.0.113.9', at: '2026-01-02T00:00:00.000Z', client: 'Acme', clientId: 'acme' }, 'security event']]);
  });

  it('masks a secret quoted in a detail, drops empty details and cuts what would outgrow the columns', async () => {
    await sut.record({ userId, type: 'client_updated', ip: `2001:db8::${'f'.repeat(60)}`, details: { client: 'paste sp_cs_abcdefghijklmnop here', clientId: '', scope: 'n'.repeat(500) }, at: T0 });

    const [row] = await rows();
    expect(row.ip).toBe(`2001:db8::${'f'.repeat(60)}`.slice(0, 45));
    const details = JSON.parse(row.details!);
    expect(Object.keys(details)).toEqual(['client', 'scope']);
    expect(details.client).not.toContain('sp_cs_abcdefghijklmnop');
    expect(details.client.startsWith('paste ')).toBe(true);
    expect(details.scope).toBe('n'.repeat(200));
    expect(JSON.stringify(lines)).not.toContain('sp_cs_abcdefghijklmnop');
  });

  it('stores nothing without details as null, and reads the newest first (the same instant: the later one first)', async () => {
    await sut.record({ userId, type: 'sign_in', at: T0 });
    await sut.record({ userId, type: 'password_changed', at: T0 + 1000 });
    await sut.record({ userId, type: 'sign_out', at: T0 + 1000 });

    expect((await rows())[0].details).toBeNull();
    expect(await sut.recent(userId)).toEqual([
      { type: 'sign_out', at: T0 + 1000, ip: null, details: {} },
      { type: 'password_changed', at: T0 + 1000, ip: null, details: {} },
      { type: 'sign_in', at: T0, ip: null, details: {} },
    ]);
    expect((await sut.recent(userId, 1)).map((event) => event.type)).toEqual(['sign_out']);
  });

  it('writes no log line when the event could not be stored', async () => {
    await expect(sut.record({ userId: userId + 1000, type: 'sign_in', at: T0 })).rejects.toThrow(/FOREIGN KEY/);
    expect(await rows()).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('purges the events older than the retention, keeps the one exactly at it, and says how many it deleted', async () => {
    const now = T0 + SECURITY_EVENT_RETENTION_MS + 5000;
    for (const at of [T0, now - SECURITY_EVENT_RETENTION_MS - 1, now - SECURITY_EVENT_RETENTION_MS, now]) await sut.record({ userId, type: 'sign_in', at });

    expect(await sut.purgeExpired(now)).toBe(2);
    expect((await rows()).map((row) => row.createdAt)).toEqual([now - SECURITY_EVENT_RETENTION_MS, now]);
    expect(await sut.purgeExpired(now)).toBe(0);
  });
});

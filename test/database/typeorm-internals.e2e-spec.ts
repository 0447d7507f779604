import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { parseEnvironment } from '../../src/config/configuration';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { preparedQuery } from '../../src/database/prepared-query';
import { param } from '../../src/database/sql';
import { inTransaction } from '../../src/database/transaction';
import { engine, isolatedStorage } from '../helpers/test-app';

/**
 * The hot paths (src/database/prepared-query.ts, src/database/transaction.ts) reach past TypeORM's
 * public API to the driver's own connection: `driver.databaseConnection` (better-sqlite3's Database) and
 * `driver.master` (pg's Pool). TypeORM does not promise these fields, so `typeorm` is pinned to one exact
 * version in package.json, and this suite fails if an upgrade moves or changes them, on each engine.
 */
describe('TypeORM internals the database helpers rely on', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let dataSource: DataSource;

  beforeAll(async () => {
    storage = await isolatedStorage();
    dataSource = await new DataSource(dataSourceOptions(parseEnvironment(storage.env).database)).initialize();
    await dataSource.query('CREATE TABLE internals_probe (name VARCHAR(20) PRIMARY KEY)');
  });
  afterAll(async () => {
    await dataSource.destroy();
    await storage.drop();
  });

  it('typeorm is pinned to an exact version', () => {
    const manifest = JSON.parse(readFileSync(`${__dirname}/../../package.json`, 'utf8')) as { dependencies: Record<string, string> };
    const installed = (JSON.parse(readFileSync(require.resolve('typeorm').replace(/index\.js$/, 'package.json'), 'utf8')) as { version: string }).version;
    expect(manifest.dependencies.typeorm).toBe(installed);
  });

  (engine() === 'sqlite' ? it : it.skip)('SQLite: driver.databaseConnection is better-sqlite3’s open Database', () => {
    const db = (dataSource.driver as unknown as { databaseConnection?: { prepare?: unknown; open?: boolean; constructor: { name: string } } })
      .databaseConnection;
    expect(db?.constructor.name).toBe('Database');
    expect(typeof db?.prepare).toBe('function');
    expect(db?.open).toBe(true);
    const statement = (db as unknown as { prepare(sql: string): { reader: boolean; all(): unknown[] } }).prepare('SELECT 1 AS one');
    expect(statement.reader).toBe(true);
    expect(statement.all()).toEqual([{ one: 1 }]);
  });

  (engine() === 'postgres' ? it : it.skip)('PostgreSQL: driver.master is pg’s Pool, and named statements run on it', async () => {
    const pool = (dataSource.driver as unknown as { master?: { query?: unknown; constructor: { name: string } } }).master;
    expect(pool?.constructor.name).toBe('BoundPool');
    expect(typeof pool?.query).toBe('function');
    const result = await (pool as unknown as { query(config: object): Promise<{ rows: unknown[] }> }).query({
      name: 'internals_probe',
      text: 'SELECT $1::int AS one',
      values: [1],
    });
    expect(result.rows).toEqual([{ one: 1 }]);
  });

  it('a query runner reports structured results (records, affected), which Tx.run relies on', async () => {
    const runner = dataSource.createQueryRunner();
    try {
      const inserted = await runner.query(`INSERT INTO internals_probe (name) VALUES (${param(dataSource, 1)}) RETURNING name`, ['a'], true);
      expect(inserted.records).toEqual([{ name: 'a' }]);
      const updated = await runner.query("UPDATE internals_probe SET name = 'b' WHERE name = 'a'", [], true);
      expect(updated.affected).toBe(1);
    } finally {
      await runner.release();
    }
  });

  it('preparedQuery and inTransaction run on those fields and see each other’s writes', async () => {
    await inTransaction(dataSource, (tx) => tx.run(`INSERT INTO internals_probe (name) VALUES (${tx.p(1)})`, ['c']));
    const read = preparedQuery<{ name: string }>(dataSource, 'internals_probe_read', 'SELECT name FROM internals_probe WHERE name = $1');
    expect(await read.all('c')).toEqual([{ name: 'c' }]);
  });
});

import { scrypt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { DataSource } from 'typeorm';
import { GroupedTransactionAwaitedIoError, inTransaction } from './transaction';
import { betterSqlite3 } from './sqlite-driver';

describe('inTransaction on SQLite', () => {
  let dataSource: DataSource;
  const names = async () => ((await dataSource.query('SELECT name FROM t ORDER BY name')) as Array<{ name: string }>).map((r) => r.name);

  beforeEach(async () => {
    dataSource = new DataSource({ type: 'better-sqlite3', driver: betterSqlite3(), database: ':memory:' });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE t (name TEXT PRIMARY KEY)');
  });
  afterEach(() => dataSource.destroy());

  const insert = (name: string) => (tx: Parameters<Parameters<typeof inTransaction>[1]>[0]) => tx.run(`INSERT INTO t (name) VALUES (${tx.p(1)})`, [name]);

  it('writes grants that arrive together, and rolls back only the one that throws', async () => {
    const results = await Promise.allSettled([
      inTransaction(dataSource, insert('a')),
      inTransaction(dataSource, async (tx) => {
        await insert('b')(tx);
        throw new Error('refused');
      }),
      inTransaction(dataSource, insert('c')),
      // A constraint violation inside a group fails that grant alone.
      inTransaction(dataSource, insert('a')),
      inTransaction(dataSource, insert('d')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect(await names()).toEqual(['a', 'c', 'd']);
  });

  it('commits once for the grants that separate callbacks of one event-loop turn asked for', async () => {
    const runner = dataSource.createQueryRunner();
    const commit = jest.spyOn(runner, 'commitTransaction');
    // Immediates queued together run as separate callbacks of one check phase, like three requests read
    // together (timers would not do: under load, timers due "together" can fall into different turns).
    const granted = await Promise.all(
      ['x', 'y', 'z'].map((name) => new Promise((resolve, reject) => setImmediate(() => inTransaction(dataSource, insert(name)).then(resolve, reject)))),
    );
    expect(granted).toHaveLength(3);
    expect(commit).toHaveBeenCalledTimes(1);
    commit.mockRestore();
    expect(await names()).toEqual(['x', 'y', 'z']);
  });

  it('decides races in arrival order, like separate transactions', async () => {
    await dataSource.query("INSERT INTO t (name) VALUES ('token')");
    const consume = () =>
      inTransaction(dataSource, async (tx) => (await tx.run(`UPDATE t SET name = 'used' WHERE name = ${tx.p(1)}`, ['token'])).affected);
    expect(await Promise.all([consume(), consume(), consume()])).toEqual([1, 0, 0]);
  });

  it('reports rows of RETURNING statements and the changes of others', async () => {
    const result = await inTransaction(dataSource, async (tx) => ({
      inserted: await tx.run<{ name: string }>(`INSERT INTO t (name) VALUES (${tx.p(1)}) RETURNING name`, ['x']),
      updated: await tx.run(`UPDATE t SET name = 'y' WHERE name = 'x'`),
    }));
    expect(result.inserted.rows).toEqual([{ name: 'x' }]);
    expect(result.updated.affected).toBe(1);
  });

  it('refuses a group in which a callback awaited real I/O: rolled back, every grant of it fails loudly', async () => {
    const results = await Promise.allSettled([
      inTransaction(dataSource, insert('e')),
      inTransaction(dataSource, async (tx) => {
        await insert('f')(tx);
        // An immediate: the event loop's next turn, like any real I/O (a network call, a file, a password hash).
        await new Promise((resolve) => setImmediate(resolve));
      }),
    ]);
    expect(results).toEqual([
      { status: 'rejected', reason: expect.any(GroupedTransactionAwaitedIoError) },
      { status: 'rejected', reason: expect.any(GroupedTransactionAwaitedIoError) },
    ]);
    expect(await names()).toEqual([]);
    // Callbacks that only await their statements (and other promises already settled) are fine.
    await inTransaction(dataSource, async (tx) => {
      await Promise.resolve();
      await insert('g')(tx);
    });
    expect(await names()).toEqual(['g']);
  });

  it.each([
    ['a timer', () => new Promise((resolve) => setTimeout(resolve, 1))],
    // Due before the event loop's next check phase, it fires in the timers phase of the next turn: an
    // immediate set as a watch would run only after the group had finished.
    [
      'a timer already due',
      () => {
        const timer = new Promise((resolve) => setTimeout(resolve, 0));
        const start = Date.now();
        while (Date.now() - start < 5);
        return timer;
      },
    ],
    ['a file read', () => readFile(__filename)],
    ['a password hash', () => new Promise((resolve, reject) => scrypt('password', 'salt', 16, (error, key) => (error ? reject(error) : resolve(key))))],
  ])('refuses a group in which a callback awaited %s', async (_, io) => {
    const results = await Promise.allSettled([
      inTransaction(dataSource, async (tx) => {
        await insert('h')(tx);
        await io();
      }),
    ]);
    expect(results).toEqual([{ status: 'rejected', reason: expect.any(GroupedTransactionAwaitedIoError) }]);
    expect(await names()).toEqual([]);
  });

  it('answers only after the commit: when it fails, every grant of the group fails and nothing is written', async () => {
    const runner = dataSource.createQueryRunner();
    const commit = jest.spyOn(runner, 'commitTransaction').mockRejectedValue(new Error('disk full'));
    const results = await Promise.allSettled([inTransaction(dataSource, insert('p')), inTransaction(dataSource, insert('q'))]);
    commit.mockRestore();
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await names()).toEqual([]);
    // The connection is usable again afterwards.
    await inTransaction(dataSource, insert('r'));
    expect(await names()).toEqual(['r']);
  });
});

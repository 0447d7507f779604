// Why inTransaction groups the SQLite grants (src/database/transaction.ts, README.md "Why it is made so"):
// the same grant (what redeeming an authorization code writes: a conditional UPDATE that decides the race,
// then two INSERTs) run on the service's own SQLite settings (WAL, synchronous=NORMAL, the checkpoint and
// cache sizes of src/database/data-source-options.ts), in three ways, interleaved round by round:
//   grouped    50 grants asked for at once through inTransaction: one COMMIT for the group, a savepoint each
//   queued     the same 50 at once, each in its own transaction through TypeORM's dataSource.transaction,
//              taking turns behind a promise queue (better-sqlite3 gives TypeORM one connection, so two
//              transactions cannot be open on it at once): the simpler code the grouping would give way to
//   npx tsx bench/transactions.ts [rounds=40] [grants per round=50] [tokens already stored=200000]   (no build needed)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { inTransaction, Tx } from '../src/database/transaction';

const ROUNDS = Number(process.argv[2] ?? 40);
const GRANTS = Number(process.argv[3] ?? 50);
const TOKENS = Number(process.argv[4] ?? 200_000);

/** Every grant of a round must have won its code and written its tokens, or the round measured nothing. */
function check(won: boolean[]): void {
  if (!won.every(Boolean)) throw new Error(`${won.filter((w) => !w).length} of ${won.length} grants wrote nothing`);
}

let queue: Promise<unknown> = Promise.resolve();
/** Runs `work` after every transaction queued before it, whatever their outcome. */
function queued<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

function managerTx(manager: EntityManager): Tx {
  return { p: () => '?', run: async (sql, values) => ({ rows: [], affected: ((await manager.queryRunner!.query(sql, values, true)) as { affected?: number }).affected ?? 0 }) };
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-transactions-'));
  const options = dataSourceOptions({ type: 'sqlite', sqlitePath: join(folder, 'bench.sqlite') } as Parameters<typeof dataSourceOptions>[0]);
  const dataSource = new DataSource({ ...options, migrations: [] });
  await dataSource.initialize();
  try {
    await dataSource.query('CREATE TABLE codes (id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, used_at INTEGER)');
    await dataSource.query('CREATE TABLE tokens (id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, user_id INTEGER NOT NULL, expires_at INTEGER NOT NULL)');
    await dataSource.query('CREATE INDEX tokens_user ON tokens (user_id, expires_at)');
    // A table the size of a busy day's tokens, so that each grant's random token hashes land on index
    // pages spread over the file, as they do in the service (the pages a COMMIT writes to the WAL).
    await inTransaction(dataSource, async (tx) => {
      for (let i = 0; i < TOKENS; i++) await tx.run(`INSERT INTO tokens (hash, user_id, expires_at) VALUES (?, ?, ?)`, [randomBytes(32).toString('hex'), i % 1000, Date.now()]);
    });
    let next = 0;
    const seed = async (count: number): Promise<number[]> => {
      const ids: number[] = [];
      await inTransaction(dataSource, async (tx) => {
        for (let i = 0; i < count; i++) {
          const id = ++next;
          await tx.run(`INSERT INTO codes (id, hash) VALUES (${tx.p(1)}, ${tx.p(2)})`, [id, `code-${id}`]);
          ids.push(id);
        }
      });
      return ids;
    };
    const grant = async (tx: Tx, id: number): Promise<boolean> => {
      const won = await tx.run(`UPDATE codes SET used_at = ${tx.p(1)} WHERE id = ${tx.p(2)} AND used_at IS NULL`, [Date.now(), id]);
      if (won.affected !== 1) return false;
      await tx.run(`INSERT INTO tokens (hash, user_id, expires_at) VALUES (${tx.p(1)}, ${tx.p(2)}, ${tx.p(3)})`, [randomBytes(32).toString('hex'), id % 1000, Date.now() + 3600_000]);
      await tx.run(`INSERT INTO tokens (hash, user_id, expires_at) VALUES (${tx.p(1)}, ${tx.p(2)}, ${tx.p(3)})`, [randomBytes(32).toString('hex'), id % 1000, Date.now() + 86_400_000]);
      return true;
    };
    const ways: Record<string, (ids: number[]) => Promise<unknown>> = {
      grouped: (ids) => Promise.all(ids.map((id) => inTransaction(dataSource, (tx) => grant(tx, id)))).then(check),
      queued: (ids) => Promise.all(ids.map((id) => queued(() => dataSource.transaction((manager) => grant(managerTx(manager), id))))).then(check),
    };
    const micros: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
    for (let round = 0; round < ROUNDS + 3; round++) {
      const order = Object.keys(ways);
      if (round % 2 === 1) order.reverse();
      for (const name of order) {
        const ids = await seed(GRANTS);
        // CPU time (user + system) of the process, not wall time: on a shared machine the wall clock
        // measures the neighbours too.
        const started = process.cpuUsage();
        await ways[name](ids);
        const used = process.cpuUsage(started);
        // The first three rounds warm the statement caches and the JIT, and are not counted.
        if (round >= 3) micros[name].push((used.user + used.system) / GRANTS);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    console.log(`${ROUNDS} rounds of ${GRANTS} grants beside ${TOKENS} tokens, SQLite WAL, synchronous=NORMAL (median CPU µs per grant)`);
    const base = median(micros.grouped);
    for (const [name, values] of Object.entries(micros)) {
      const m = median(values);
      console.log(`${name.padEnd(11)} ${m.toFixed(1).padStart(7)} µs   ${(1e6 / m).toFixed(0).padStart(7)} grants per CPU second   ${(m / base).toFixed(2)}× grouped`);
    }
  } finally {
    await dataSource.destroy();
    rmSync(folder, { recursive: true, force: true });
  }
}

void main();

import { createHook } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { DataSource, QueryRunner } from 'typeorm';
import { isDatabaseUnavailable } from '../common/errors/database-unavailable';
import { param } from './sql';

/** One statement's outcome: the rows it returned (SELECT, RETURNING) and the rows it changed. */
export interface StatementResult<Row = Record<string, unknown>> {
  rows: Row[];
  affected: number;
}

/** The statements of one transaction, in the connection's own SQL dialect. */
export interface Tx {
  /** Positional placeholder `n` (1-based): `$n` on PostgreSQL, `?` on SQLite. */
  p(n: number): string;
  run<Row = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<StatementResult<Row>>;
}

/**
 * Runs `work` in one database transaction: committed when it resolves, rolled back when it throws.
 * Single-use rules are enforced inside `work` with conditional UPDATEs whose affected-row count says
 * who won, so they hold across several server instances sharing one PostgreSQL.
 *
 * On SQLite (one writer at a time, and one connection that better-sqlite3 gives TypeORM), transactions
 * of this process take turns, and the grants asked for in one turn of the event loop (or while a group
 * was running) are written together: one transaction for the whole group, at most MAX_GROUP grants, each
 * in its own savepoint, so a grant that throws rolls back only its own writes. Nobody is answered before
 * the group's COMMIT. Inside the group the grants run one after the other, so the conditional UPDATEs
 * decide races exactly as in separate transactions.
 *
 * The rule that makes the grouping safe: on SQLite, `work` runs only statements of `tx` and plain
 * computation; it never awaits real I/O (a network call, a file, a timer, a password hash, another
 * service). better-sqlite3 runs every statement synchronously, so a group as a whole runs within one
 * turn of the event loop and nothing else can touch the shared connection while its transaction is
 * open. A callback that awaited I/O would let other requests' statements run inside this transaction
 * (their reads would see uncommitted rows, their writes would commit or roll back with the group) and
 * would hold the write lock while it waits. Such a group is therefore refused: it is rolled back and
 * every grant of it fails with GroupedTransactionAwaitedIoError, so a violation fails every test that
 * reaches it instead of corrupting data under load. Do the I/O before calling inTransaction.
 *
 * The rule is checked, not guessed: while a group's transaction is open, a hook of node:async_hooks sees
 * every callback the event loop runs (see TurnWatch). Grants that await only their statements run
 * within promise reactions of the turn that started the group; any other callback running before the
 * COMMIT (an I/O completion, a timer, an immediate, another request's socket) means the group gave the
 * event loop a turn.
 */
export async function inTransaction<T>(dataSource: DataSource, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (dataSource.options.type === 'postgres') return withRetry(() => runTransaction(dataSource, work));
  return new Promise<T>((resolve, reject) => {
    let group = groups.get(dataSource);
    if (!group) groups.set(dataSource, (group = { pending: [], running: false }));
    group.pending.push({ work, resolve, reject } as Pending<unknown>);
    if (!group.running) {
      group.running = true;
      // The group starts once this turn of the event loop has read every request that is ready, so the
      // grants that arrived together share one COMMIT instead of one each.
      setImmediate(() => void drain(dataSource, group));
    }
  });
}

/**
 * inTransaction for services: a service runs its repositories' statements together without holding the
 * connection itself (docs/add-a-module.md, "Data access"). Provided to every module by DatabaseModule.
 */
@Injectable()
export class Transactions {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction (see inTransaction, whose rules apply). */
  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return inTransaction(this.dataSource, work);
  }
}

/** A callback grouped into a SQLite transaction awaited real I/O (see the rule on inTransaction). */
export class GroupedTransactionAwaitedIoError extends Error {
  constructor() {
    super('A callback of inTransaction awaited I/O while its SQLite transaction was open; do the I/O before inTransaction.');
    this.name = 'GroupedTransactionAwaitedIoError';
  }
}

interface Pending<T> {
  work: (tx: Tx) => Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}
interface Group {
  pending: Array<Pending<unknown>>;
  running: boolean;
}
const groups = new WeakMap<DataSource, Group>();
/** Grants per SQLite transaction, at most: a bound on how long one group holds the write lock. */
const MAX_GROUP = 64;

async function drain(dataSource: DataSource, group: Group): Promise<void> {
  try {
    while (group.pending.length > 0) await runGroup(dataSource, group.pending.splice(0, MAX_GROUP));
  } finally {
    group.running = false;
  }
}

async function runGroup(dataSource: DataSource, batch: Array<Pending<unknown>>): Promise<void> {
  const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
  // TypeORM begins and ends the transaction, so it knows one is open on its shared connection.
  const runner = dataSource.createQueryRunner();
  const watched = turnWatch.start();
  try {
    await runner.startTransaction();
    const tx = sqliteTx(dataSource, runner);
    for (const [i, pending] of batch.entries()) {
      const savepoint = `sp_grant_${i}`;
      tx.exec(`SAVEPOINT ${savepoint}`);
      try {
        outcomes.push({ ok: true, value: await pending.work(tx) });
        tx.exec(`RELEASE ${savepoint}`);
      } catch (error) {
        // The database itself is unavailable (e.g. another process holds the write lock past the busy
        // timeout): the rest of the group would wait and fail the same way, so the group fails now.
        if (isDatabaseUnavailable(error)) throw error;
        outcomes.push({ ok: false, error });
        tx.exec(`ROLLBACK TO ${savepoint}`);
        tx.exec(`RELEASE ${savepoint}`);
      }
    }
    if (turnWatch.stop(watched)) throw new GroupedTransactionAwaitedIoError();
    await runner.commitTransaction();
  } catch (error) {
    turnWatch.stop(watched);
    // The transaction itself failed (BEGIN, a savepoint, COMMIT): nothing of the group was written.
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    for (const pending of batch) pending.reject(error);
    return;
  }
  batch.forEach((pending, i) => {
    const outcome = outcomes[i];
    if (outcome.ok) pending.resolve(outcome.value);
    else pending.reject(outcome.error);
  });
}

/**
 * Whether the event loop ran anything but the current turn's promise reactions and next-tick callbacks
 * between start() and stop(). While on, `init` records the resources that run within a turn (promises,
 * process.nextTick, queueMicrotask) as they are created, and `before` (called before every callback of
 * any resource) flags a callback of anything else: that callback is the event loop's next turn. The
 * hook is on only while a group's transaction is open, so it costs nothing elsewhere.
 */
class TurnWatch {
  private readonly withinTurn = new Set<number>();
  /** The groups being watched: one per data source at most, and several only if one broke the rule. */
  private readonly watching = new Set<{ left: boolean }>();
  private readonly hook = createHook({
    init: (asyncId, type) => {
      if (type === 'PROMISE' || type === 'TickObject' || type === 'Microtask') this.withinTurn.add(asyncId);
    },
    before: (asyncId) => {
      if (!this.withinTurn.has(asyncId)) for (const group of this.watching) group.left = true;
    },
  });

  start(): { left: boolean } {
    const group = { left: false };
    if (this.watching.size === 0) this.hook.enable();
    this.watching.add(group);
    return group;
  }

  /** Stops watching this group; true when the event loop took a turn since its start(). */
  stop(group: { left: boolean }): boolean {
    if (this.watching.delete(group) && this.watching.size === 0) {
      this.hook.disable();
      this.withinTurn.clear();
    }
    return group.left;
  }
}
const turnWatch = new TurnWatch();

interface SqliteStatement {
  reader: boolean;
  all(...values: unknown[]): unknown[];
  run(...values: unknown[]): { changes: number };
}
interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
}
const statementCache = new WeakMap<SqliteDatabase, Map<string, SqliteStatement>>();

/**
 * The statements of a SQLite transaction, run on better-sqlite3's connection through statements
 * prepared once per SQL text (the grant writes are a handful of fixed texts), not through the ORM.
 * `driver.databaseConnection` is a TypeORM internal (see test/database/typeorm-internals.e2e-spec.ts).
 */
function sqliteTx(dataSource: DataSource, runner: QueryRunner): Tx & { exec(sql: string): void } {
  const db = (dataSource.driver as { databaseConnection?: SqliteDatabase }).databaseConnection;
  if (!db) {
    const tx = txOf(runner);
    return { ...tx, exec: () => undefined };
  }
  let cache = statementCache.get(db);
  if (!cache) statementCache.set(db, (cache = new Map()));
  const prepared = (sql: string): SqliteStatement => {
    let statement = cache.get(sql);
    if (!statement) cache.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  return {
    p: () => '?',
    exec: (sql) => void prepared(sql).run(),
    run: async <Row>(sql: string, values: unknown[] = []) => {
      const statement = prepared(sql);
      // Like TypeORM's runner: statements that return rows (SELECT, RETURNING) report them, others the changes.
      return statement.reader
        ? { rows: statement.all(...values) as Row[], affected: 0 }
        : { rows: [] as Row[], affected: statement.run(...values).changes };
    },
  };
}

// PostgreSQL may abort one of two transactions that revoke the same rows at once (deadlock_detected,
// serialization_failure), or one whose check for a free value (an address that no account has) read
// before another transaction, committed since, took that value (unique_violation). The whole transaction
// is then safe to run again: run again, it reads the rows now committed and decides as it would have
// (for the address: taken, refused). A unique value a transaction really repeats fails again each time.
const RETRYABLE = new Set(['40P01', '40001', '23505']);

async function withRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const code = (error as { driverError?: { code?: string }; code?: string }).driverError?.code ?? (error as { code?: string }).code;
      if (attempt >= attempts || !RETRYABLE.has(code ?? '')) throw error;
    }
  }
}

async function runTransaction<T>(dataSource: DataSource, work: (tx: Tx) => Promise<T>): Promise<T> {
  return dataSource.transaction(async (manager) => work(txOf(manager.queryRunner!)));
}

/** A statement runner outside any transaction, for single statements. */
export function statements(dataSource: DataSource): Tx {
  return {
    p: (n) => param(dataSource, n),
    run: async <Row>(sql: string, values: unknown[] = []) => {
      const runner = dataSource.createQueryRunner();
      try {
        return resultOf<Row>(await runner.query(sql, values, true));
      } finally {
        // A no-op on SQLite's shared runner; returns the pooled connection on PostgreSQL.
        if (dataSource.options.type === 'postgres') await runner.release();
      }
    },
  };
}

function txOf(runner: QueryRunner): Tx {
  return {
    p: (n) => param(runner, n),
    run: async <Row>(sql: string, values: unknown[] = []) => resultOf<Row>(await runner.query(sql, values, true)),
  };
}

function resultOf<Row>(result: { records?: unknown[]; affected?: number }): StatementResult<Row> {
  return { rows: (result.records ?? []) as Row[], affected: result.affected ?? 0 };
}

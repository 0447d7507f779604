import { DataSource, QueryRunner } from 'typeorm';
import { param } from '../../database/sql';

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

// better-sqlite3 gives TypeORM a single connection and a single query runner: two overlapping
// `transaction()` calls in one process would nest as savepoints of each other. Transactions of this
// module therefore take turns on SQLite (it allows one writer at a time anyway). On PostgreSQL each
// transaction has its own pooled connection and the conditional UPDATEs decide the races.
const queues = new WeakMap<DataSource, Promise<unknown>>();

/**
 * Runs `work` in one database transaction: committed when it resolves, rolled back when it throws.
 * Single-use rules are enforced inside `work` with conditional UPDATEs whose affected-row count says
 * who won, so they hold across several server instances sharing one PostgreSQL.
 */
export async function inTransaction<T>(dataSource: DataSource, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (dataSource.options.type === 'postgres') return withRetry(() => runTransaction(dataSource, work));
  const previous = queues.get(dataSource) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(() => runTransaction(dataSource, work));
  queues.set(dataSource, current);
  return current;
}

// PostgreSQL may abort one of two transactions that revoke the same rows at once (deadlock_detected,
// serialization_failure); the whole transaction is then safe to run again.
const RETRYABLE = new Set(['40P01', '40001']);

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

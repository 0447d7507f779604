import type { DataSource } from 'typeorm';
import { param } from './sql';

interface SqliteStatement {
  all(...values: unknown[]): unknown[];
}
interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
}
interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** A read statement prepared once and run with new values on every call. */
export interface PreparedQuery<Row> {
  all(...values: unknown[]): Promise<Row[]>;
}

/**
 * A read on a hot path, bypassing the ORM's per-query work (query runner, logger, broadcaster, result
 * wrapping). On SQLite the statement is prepared once on better-sqlite3's connection and runs
 * synchronously; on PostgreSQL it is a named statement, which each pooled connection parses and plans
 * once. `sql` uses `$1`, `$2`… placeholders and is rewritten for SQLite.
 *
 * `driver.master` and `driver.databaseConnection` are TypeORM internals: `typeorm` is pinned to an exact
 * version, and test/database/typeorm-internals.e2e-spec.ts fails on both engines if an upgrade moves them.
 *
 * Errors are the driver's own (SQLITE_BUSY, PostgreSQL connection codes), which the exception filter
 * maps to 503 like the ORM's wrapped ones.
 */
export function preparedQuery<Row>(dataSource: DataSource, name: string, sql: string): PreparedQuery<Row> {
  if (dataSource.options.type === 'postgres') {
    return {
      all: async (...values) => {
        const pool = (dataSource.driver as unknown as { master: PgPool }).master;
        return (await pool.query({ name, text: sql, values })).rows as Row[];
      },
    };
  }
  const sqliteSql = sql.replace(/\$\d+/g, () => param(dataSource, 1));
  let prepared: { db: SqliteDatabase; statement: SqliteStatement } | undefined;
  return {
    all: async (...values) => {
      const db = (dataSource.driver as { databaseConnection?: SqliteDatabase } | undefined)?.databaseConnection;
      // No raw connection to prepare on (not connected yet, or a stand-in data source): the ORM runs it.
      if (!db) return dataSource.query(sqliteSql, values);
      // The connection is replaced only if the data source is destroyed and initialized again.
      if (prepared?.db !== db) prepared = { db, statement: db.prepare(sqliteSql) };
      return prepared.statement.all(...values) as Row[];
    },
  };
}

import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { Configuration } from '../config/configuration';
import { MIGRATIONS } from './migrations';
import { betterSqlite3 } from './sqlite-driver';

/**
 * How long a PostgreSQL query may wait for its answer. Without it a query sent on a pooled connection
 * whose peer went silent (a network partition, a frozen server) waits for ever, and so does the request
 * behind it; with it the request fails as "database unavailable" (503) and the pool goes on.
 */
export const POSTGRES_QUERY_TIMEOUT_MS = 10_000;
/** How long to wait for a new PostgreSQL connection, or for a free one from a busy pool. */
export const POSTGRES_CONNECT_TIMEOUT_MS = 5_000;

/**
 * TypeORM options for the configured engine: an embedded SQLite file by default, PostgreSQL by URL. No
 * entities: the feature modules register theirs (DatabaseModule sets `autoLoadEntities`); the migrations
 * are plain SQL and need none.
 */
export function dataSourceOptions(config: Configuration['database']): DataSourceOptions {
  const common = {
    migrations: MIGRATIONS,
    migrationsRun: false,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if (config.type === 'postgres') {
    return {
      ...common,
      type: 'postgres',
      url: config.url,
      schema: config.schema,
      poolSize: config.poolSize,
      extra: {
        max: config.poolSize,
        connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
        query_timeout: POSTGRES_QUERY_TIMEOUT_MS,
        // Every session resolves unqualified names in the configured schema, raw queries included.
        ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
      },
    };
  }
  const file = resolve(config.sqlitePath);
  mkdirSync(dirname(file), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    driver: betterSqlite3(),
    database: file,
    enableWAL: true,
    prepareDatabase: (db: { pragma(source: string): unknown }) => {
      db.pragma('busy_timeout = 5000');
      db.pragma('foreign_keys = ON');
      db.pragma('synchronous = NORMAL');
      // Checkpoint the WAL every ~40 MB instead of SQLite's 4 MB: each token grant dirties a few random
      // index pages, and copying them back (with an fsync) every 1,000 pages took more time than the
      // writes themselves. Pages written again before the next checkpoint are copied once.
      db.pragma('wal_autocheckpoint = 10000');
      // A 16 MiB page cache instead of SQLite's 2 MiB: the token, key and user indexes read on every
      // request stay in it next to the startups' pages (P2 of the bench: about 5% more requests a second).
      db.pragma('cache_size = -16384');
    },
  };
}

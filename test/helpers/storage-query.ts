import { Client as PgClient } from 'pg';
import { betterSqlite3 } from '../../src/database/sqlite-driver';

const Database = betterSqlite3();

/**
 * Runs one query against the database an isolated storage env points at (`SQLITE_PATH`, or
 * `DATABASE_URL` + `DATABASE_SCHEMA`), from outside any application: what a CLI run left behind.
 */
export async function queryStorage<T = Record<string, unknown>>(env: Record<string, string>, sql: string): Promise<T[]> {
  if (env.DATABASE_URL) {
    const pg = new PgClient({ connectionString: env.DATABASE_URL, options: env.DATABASE_SCHEMA ? `-c search_path=${env.DATABASE_SCHEMA}` : undefined });
    await pg.connect();
    try {
      return (await pg.query(sql)).rows as T[];
    } finally {
      await pg.end();
    }
  }
  const db = new Database(env.SQLITE_PATH, { fileMustExist: true });
  try {
    const statement = db.prepare(sql);
    if (!statement.reader) {
      statement.run();
      return [];
    }
    return statement.all() as T[];
  } finally {
    db.close();
  }
}

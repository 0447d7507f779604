import { DataSource } from 'typeorm';

// An arbitrary constant that names "this service's schema migration" among PostgreSQL advisory locks.
const MIGRATION_LOCK_KEY = 7_301_142_311;
const createdBy = new WeakSet<DataSource>();

/**
 * Runs the pending committed migrations. On PostgreSQL, several instances may start at once against one
 * database: an advisory lock makes them take turns, so exactly one applies each migration and the
 * others find nothing left to do. Returns whether this run created the schema (a new, empty database).
 */
export async function runMigrations(source: DataSource): Promise<boolean> {
  const postgres = source.options.type === 'postgres';
  const runner = postgres ? source.createQueryRunner() : undefined;
  try {
    if (runner) await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await source.runMigrations({ transaction: 'each' });
    const created = applied.some((migration) => migration.name === source.migrations[0]?.name);
    if (created) createdBy.add(source);
    return created;
  } finally {
    if (runner) {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      await runner.release();
    }
  }
}

/** Whether this process's start created the schema, i.e. the database was new and empty. */
export function createdThisStart(source: DataSource): boolean {
  return createdBy.has(source);
}

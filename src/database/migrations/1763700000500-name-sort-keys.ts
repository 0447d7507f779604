import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { foldName } from '../../common/text/name-folding';
import { param } from '../sql';

/**
 * Name order as a person expects it, the same on both engines: industries and startups keep
 * `sort_name = foldName(name)` (case, accents and the Turkish i's folded; see common/text/name-folding.ts)
 * beside the name, and lists are ordered by `(sort_name, id)`.
 *
 * The folded key is compared byte by byte: SQLite's default BINARY collation, and `COLLATE "C"` on
 * PostgreSQL, so the database's locale (en_US, tr_TR, C) changes nothing.
 *
 * Startups already had `search_name` (the name lowercased, accents kept): it becomes `sort_name`, refolded.
 * The old `(name, id)` index served only the order and gives way to `(sort_name, id)`; the industry
 * filter's `(industry_id, name)` index becomes `(industry_id, sort_name, id)`, so a filtered list walks
 * it in order too.
 */
export class NameSortKeys1763700000500 implements MigrationInterface {
  name = 'NameSortKeys1763700000500';

  async up(q: QueryRunner): Promise<void> {
    const postgres = isPostgres(q);

    await q.addColumn(
      'industries',
      new TableColumn({
        name: 'sort_name',
        type: 'varchar',
        length: '100',
        isNullable: true,
        ...byteOrder(q),
      }),
    );
    await refold(q, 'industries');
    // SQLite cannot add NOT NULL without a default: TypeORM rebuilds the table (foreign keys are off while
    // migrations run), PostgreSQL just sets the constraint.
    await q.changeColumn(
      'industries',
      'sort_name',
      new TableColumn({
        name: 'sort_name',
        type: 'varchar',
        length: '100',
        isNullable: false,
        ...byteOrder(q),
      }),
    );
    await q.createIndex(
      'industries',
      new TableIndex({
        name: 'idx_industries_sort_name',
        columnNames: ['sort_name', 'id'],
      }),
    );

    await q.dropIndex('startups', 'idx_startups_search_name');
    await q.dropIndex('startups', 'idx_startups_name');
    await q.dropIndex('startups', 'idx_startups_industry_id');
    await q.query('ALTER TABLE startups RENAME COLUMN search_name TO sort_name');
    if (postgres) await q.query('ALTER TABLE startups ALTER COLUMN sort_name TYPE varchar(200) COLLATE "C"');
    await refold(q, 'startups');
    await q.createIndex(
      'startups',
      new TableIndex({
        name: 'idx_startups_sort_name',
        columnNames: ['sort_name', 'id'],
      }),
    );
    await q.createIndex(
      'startups',
      new TableIndex({
        name: 'idx_startups_industry_sort_name',
        columnNames: ['industry_id', 'sort_name', 'id'],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('startups', 'idx_startups_industry_sort_name');
    await q.dropIndex('startups', 'idx_startups_sort_name');
    if (isPostgres(q)) await q.query('ALTER TABLE startups ALTER COLUMN sort_name TYPE varchar(200) COLLATE "default"');
    await q.query('ALTER TABLE startups RENAME COLUMN sort_name TO search_name');
    // The earlier folding: lowercased with the Turkish i's, accents kept.
    await rewrite(q, 'startups', 'search_name', (name) => name.normalize('NFC').replace(/[İIı]/g, 'i').toLowerCase());
    await q.createIndex(
      'startups',
      new TableIndex({
        name: 'idx_startups_name',
        columnNames: ['name', 'id'],
      }),
    );
    await q.createIndex(
      'startups',
      new TableIndex({
        name: 'idx_startups_industry_id',
        columnNames: ['industry_id', 'name'],
      }),
    );
    await q.createIndex(
      'startups',
      new TableIndex({
        name: 'idx_startups_search_name',
        columnNames: ['search_name'],
      }),
    );
    await q.dropIndex('industries', 'idx_industries_sort_name');
    // Plain SQL (SQLite 3.35+ has DROP COLUMN): TypeORM would rebuild the table on SQLite, which a revert
    // cannot do while `startups` refers to it (it runs inside the transaction, where foreign keys stay on).
    await q.query('ALTER TABLE industries DROP COLUMN sort_name');
  }
}

const isPostgres = (q: QueryRunner) => q.connection.options.type === 'postgres';

/** Byte order for the key on PostgreSQL (SQLite's default collation already is). */
const byteOrder = (q: QueryRunner): { collation?: string } => (isPostgres(q) ? { collation: 'C' } : {});

/** Sets `sort_name = foldName(name)` on every row of `table` whose key differs. */
function refold(q: QueryRunner, table: 'industries' | 'startups'): Promise<void> {
  return rewrite(q, table, 'sort_name', foldName);
}

const BATCH_ROWS = 1000;

async function rewrite(q: QueryRunner, table: string, column: string, fold: (name: string) => string): Promise<void> {
  const rows: Array<{ id: number | string; name: string; key: string | null }> = await q.query(`SELECT id, name, ${column} AS key FROM ${table}`);
  const changed = rows.filter((row) => row.key !== fold(row.name)).map((row) => ({ id: Number(row.id), key: fold(row.name) }));
  for (let start = 0; start < changed.length; start += BATCH_ROWS) {
    const batch = changed.slice(start, start + BATCH_ROWS);
    if (isPostgres(q)) {
      await q.query(`UPDATE ${table} AS t SET ${column} = v.key FROM (SELECT unnest($1::integer[]) AS id, unnest($2::text[]) AS key) AS v WHERE t.id = v.id`, [
        batch.map((row) => row.id),
        batch.map((row) => row.key),
      ]);
    } else {
      for (const row of batch) await q.query(`UPDATE ${table} SET ${column} = ${param(q, 1)} WHERE id = ${param(q, 2)}`, [row.key, row.id]);
    }
  }
}

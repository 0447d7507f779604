import { MigrationInterface, QueryRunner } from 'typeorm';

// An arbitrary constant that names "installing pg_trgm" among PostgreSQL advisory locks. Each schema
// migrates under its own lock (database/migrate.ts), but the extension belongs to the whole database:
// two schemas migrating at once must not both try to create it.
const EXTENSION_LOCK_KEY = 7_301_142_312;

/**
 * `q` as an index lookup instead of a scan: a trigram index over the folded name (`sort_name`), which
 * serves "contains" for terms of three characters or more.
 *
 * SQLite: `startups_search`, an FTS5 table with the `trigram` tokenizer over `startups.sort_name`
 * (external content: it stores the index, not a second copy of the names). Triggers keep it in step with
 * every insert, rename and delete, whoever writes; `case_sensitive 1` because the key is already folded,
 * so FTS5 matches exactly the substrings that LIKE would. Its rowid is the startup's id.
 *
 * PostgreSQL: a GIN index with pg_trgm's `gin_trgm_ops` on `sort_name`, maintained by PostgreSQL itself,
 * which serves `sort_name LIKE '%…%'`. The extension is installed once for the whole database, in
 * `public` (or wherever it already is), not in the service's schema: several schemas of one database (one
 * per test suite, or per tenant) share it, and dropping one of them must not drop it. The operator class
 * is named with the extension's schema, so the index is created whatever the `search_path`. Creating the
 * extension needs the right to (pg_trgm is a trusted extension: a database owner has it); otherwise an
 * administrator runs `CREATE EXTENSION pg_trgm` once, and this migration finds it.
 */
export class StartupsTrigramSearch1763700000501 implements MigrationInterface {
  name = 'StartupsTrigramSearch1763700000501';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.options.type === 'postgres') {
      await q.query('SELECT pg_advisory_xact_lock($1)', [EXTENSION_LOCK_KEY]);
      await q.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
      const schema = await trigramSchema(q);
      await q.query(`CREATE INDEX idx_startups_sort_name_trgm ON startups USING gin (sort_name ${quoteIdent(schema)}.gin_trgm_ops)`);
      return;
    }
    await q.query("CREATE VIRTUAL TABLE startups_search USING fts5(sort_name, content='startups', content_rowid='id', tokenize='trigram case_sensitive 1')");
    await q.query(`CREATE TRIGGER startups_search_insert AFTER INSERT ON startups BEGIN
  INSERT INTO startups_search (rowid, sort_name) VALUES (new.id, new.sort_name);
END`);
    await q.query(`CREATE TRIGGER startups_search_delete AFTER DELETE ON startups BEGIN
  INSERT INTO startups_search (startups_search, rowid, sort_name) VALUES ('delete', old.id, old.sort_name);
END`);
    await q.query(`CREATE TRIGGER startups_search_update AFTER UPDATE OF id, sort_name ON startups BEGIN
  INSERT INTO startups_search (startups_search, rowid, sort_name) VALUES ('delete', old.id, old.sort_name);
  INSERT INTO startups_search (rowid, sort_name) VALUES (new.id, new.sort_name);
END`);
    await q.query("INSERT INTO startups_search (startups_search) VALUES ('rebuild')");
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.options.type === 'postgres') {
      // The extension stays: other schemas of the database may use it.
      await q.query('DROP INDEX idx_startups_sort_name_trgm');
      return;
    }
    for (const trigger of ['startups_search_insert', 'startups_search_delete', 'startups_search_update']) await q.query(`DROP TRIGGER ${trigger}`);
    await q.query('DROP TABLE startups_search');
  }
}

async function trigramSchema(q: QueryRunner): Promise<string> {
  const rows: Array<{ schema: string }> = await q.query(
    "SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'",
  );
  return rows[0].schema;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Clients identified by a Client ID Metadata Document (docs/integrate-with-oauth.md, "Clients identified
 * by a URL"): their `client_id` is the URL of the document, so it grows from 64 to 255 characters, and
 * each such client has a row like any other (its consents, codes and tokens point at it by the same
 * foreign keys), marked by `source`:
 * - `source`: `registered` (CLI or developer portal) or `metadata_document`;
 * - `metadata_document`: the last valid document fetched, as JSON (null for a registered client);
 * - `metadata_fetched_at`: when it was fetched.
 *
 * PostgreSQL widens the column in place. SQLite cannot alter a column, so TypeORM rebuilds
 * `oauth_clients` (rows, indexes and keys kept); dropping the old table while foreign keys are enforced
 * would delete every code, token and consent of every client (ON DELETE CASCADE), so it runs only with
 * enforcement off, as TypeORM runs migrations (see 1790000000951). The new columns are plain
 * `ADD COLUMN`s on both engines.
 */
export class ClientMetadataDocuments1790000003601 implements MigrationInterface {
  name = 'ClientMetadataDocuments1790000003601';

  async up(q: QueryRunner): Promise<void> {
    await widenClientId(q, '255');
    await q.query(`ALTER TABLE oauth_clients ADD COLUMN source varchar(20) NOT NULL DEFAULT 'registered'`);
    await q.query('ALTER TABLE oauth_clients ADD COLUMN metadata_document text NULL');
    await q.query('ALTER TABLE oauth_clients ADD COLUMN metadata_fetched_at bigint NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    // Their identifiers do not fit the old schema: the clients of metadata documents go (their grants cascade).
    await q.query(`DELETE FROM oauth_clients WHERE source = 'metadata_document'`);
    await q.query('ALTER TABLE oauth_clients DROP COLUMN metadata_fetched_at');
    await q.query('ALTER TABLE oauth_clients DROP COLUMN metadata_document');
    await q.query('ALTER TABLE oauth_clients DROP COLUMN source');
    // SQLite never enforces a varchar's length: narrowing it there would rebuild the table (and need
    // foreign keys off, which TypeORM does not do for an undo) for a declaration nothing reads.
    if (q.connection.options.type === 'postgres') await widenClientId(q, '64');
  }
}

async function widenClientId(q: QueryRunner, length: string): Promise<void> {
  if (q.connection.options.type === 'postgres') {
    await q.query(`ALTER TABLE oauth_clients ALTER COLUMN client_id TYPE varchar(${length})`);
    return;
  }
  const table = (await q.getTable('oauth_clients'))!;
  const old = table.findColumnByName('client_id')!;
  // Undone and run again: the width was kept (see down).
  if (old.length === length) return;
  const [{ foreign_keys: enforced }] = (await q.query('PRAGMA foreign_keys')) as Array<{ foreign_keys: number }>;
  if (enforced) throw new Error('Run 1790000003601 on SQLite with foreign keys off: rebuilding oauth_clients with them on would delete its tokens');
  const wider = old.clone();
  wider.length = length;
  await q.changeColumn(table, old, wider);
}

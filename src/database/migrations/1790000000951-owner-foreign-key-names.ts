import { MigrationInterface, QueryRunner, TableForeignKey } from 'typeorm';

const OWNED_TABLES = ['oauth_clients', 'api_keys'] as const;

/**
 * Names the owner foreign keys of 1763700000200 on SQLite as PostgreSQL named them
 * (`oauth_clients_owner_id_fkey`, `api_keys_owner_id_fkey`), so that the entities can declare them by one
 * name on both engines (docs/add-a-module.md, "Data access"). `ADD COLUMN … REFERENCES` gave them no name
 * on SQLite, and TypeORM's schema builder matches foreign keys by name: without one it would drop and
 * recreate them in every generated migration.
 *
 * PostgreSQL: nothing to do. SQLite keeps a constraint's name only in the table's CREATE statement, so
 * each table is rebuilt by TypeORM (rows, indexes and the other keys kept), as in 1763700000400. Dropping
 * the old `oauth_clients` while foreign keys are enforced would delete every code, token and consent of
 * every client (ON DELETE CASCADE): the migration runs only with enforcement off, which TypeORM does
 * before it runs migrations (see 1763700000200). A table whose key already has its name is left alone.
 */
export class OwnerForeignKeyNames1790000000951 implements MigrationInterface {
  name = 'OwnerForeignKeyNames1790000000951';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.options.type === 'postgres') return;
    const [{ foreign_keys: enforced }] = (await q.query('PRAGMA foreign_keys')) as Array<{ foreign_keys: number }>;
    if (enforced) throw new Error('Run 1790000000951 on SQLite with foreign keys off: rebuilding oauth_clients with them on would delete its tokens');
    for (const name of OWNED_TABLES) {
      const table = (await q.getTable(name))!;
      const owner = table.foreignKeys.find((key) => key.columnNames.length === 1 && key.columnNames[0] === 'owner_id');
      const wanted = `${name}_owner_id_fkey`;
      if (!owner || owner.name === wanted) continue;
      await q.dropForeignKey(table, owner);
      await q.createForeignKey(
        name,
        new TableForeignKey({ name: wanted, columnNames: ['owner_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
      );
    }
  }

  async down(): Promise<void> {
    // Nothing to undo: the earlier schema differs only in a name that SQLite never reads.
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

const OWNED_TABLES = ['oauth_clients', 'api_keys'] as const;

/**
 * Clients and API keys gain an owner (README.md, Your account): the user who made them in the developer portal.
 * Those made with the CLI keep a null owner and stay the operator's. The same `ALTER TABLE … ADD
 * COLUMN … REFERENCES` runs on both engines (SQLite allows it for a nullable column without a default,
 * so no table is rebuilt); a user's applications and keys go with the user. The portal lists and
 * counts them per owner, hence the index.
 */
export class ClientAndKeyOwners1763700000200 implements MigrationInterface {
  name = 'ClientAndKeyOwners1763700000200';

  async up(q: QueryRunner): Promise<void> {
    for (const table of OWNED_TABLES) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN owner_id integer REFERENCES users (id) ON DELETE CASCADE`);
      await q.query(`CREATE INDEX idx_${table}_owner ON ${table} (owner_id)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'postgres') {
      // SQLite cannot drop a column that is a foreign key, so TypeORM rebuilds the table; with foreign
      // keys enforced, dropping the old oauth_clients would delete every code, token and consent of every
      // client (ON DELETE CASCADE). TypeORM turns enforcement off only outside a transaction.
      const [{ foreign_keys: enforced }] = (await q.query('PRAGMA foreign_keys')) as Array<{ foreign_keys: number }>;
      if (enforced) throw new Error("Undo 1763700000200 on SQLite with { transaction: 'none' }: rebuilding oauth_clients with foreign keys on would delete its tokens");
    }
    for (const table of OWNED_TABLES) {
      await q.query(`DROP INDEX idx_${table}_owner`);
      await q.dropColumn(table, 'owner_id');
    }
  }
}

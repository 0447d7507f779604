import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * The account's security events (README.md, Your account): who did what, from which address, when. Kept 90 days
 * (the purge deletes older rows, hence the index on the instant alone); an account's page reads its
 * newest 20 through (user_id, created_at, id). Rows go with their user.
 */
export class SecurityEvents1763700000100 implements MigrationInterface {
  name = 'SecurityEvents1763700000100';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'security_events',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer' },
          { name: 'type', type: 'varchar', length: '40' },
          { name: 'ip', type: 'varchar', length: '45', isNullable: true },
          { name: 'details', type: 'text', isNullable: true },
          { name: 'created_at', type: 'bigint' },
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
        indices: [
          new TableIndex({ name: 'idx_security_events_user_created', columnNames: ['user_id', 'created_at', 'id'] }),
          new TableIndex({ name: 'idx_security_events_created', columnNames: ['created_at'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('security_events');
  }
}

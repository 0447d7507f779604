import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Sign-ups waiting for their address to be confirmed (README.md, Your account): not accounts, so nothing
 * can sign in with one and nobody can pre-register someone else's address. One per address (a new
 * sign-up replaces it); the link's token is stored only as its SHA-256 hash.
 */
export class PendingRegistrations1790000002902 implements MigrationInterface {
  name = 'PendingRegistrations1790000002902';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'pending_registrations',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'email', type: 'varchar', length: '254', isUnique: true },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'password_hash', type: 'varchar', length: '255' },
          { name: 'token_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'expires_at', type: 'bigint' },
          { name: 'created_at', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'idx_pending_registrations_expires_at', columnNames: ['expires_at'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('pending_registrations');
  }
}

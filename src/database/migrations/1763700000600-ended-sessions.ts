import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * The signed-in sessions ended by a sign-out (README.md, Your account; docs/integrate-with-oauth.md, logout) before their cookie expired: every
 * instance reads a signed-in session's id here by primary key, and refuses it when listed. The purge
 * deletes rows whose session has expired, hence the index on the instant alone.
 */
export class EndedSessions1763700000600 implements MigrationInterface {
  name = 'EndedSessions1763700000600';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'ended_sessions',
        columns: [
          { name: 'sid', type: 'varchar', length: '64', isPrimary: true },
          { name: 'expires_at', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'idx_ended_sessions_expires_at', columnNames: ['expires_at'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('ended_sessions');
  }
}

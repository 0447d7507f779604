import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * The Device Authorization Grant (RFC 8628, docs/integrate-with-oauth.md "Sign in from a command-line
 * tool"): clients gain `device_flow`, off unless the operator or the developer enables it, and each
 * device authorization request is a row holding the SHA-256 of its device code and of its user code,
 * what was asked, the user's decision and the poll state. `redeemed_at` is set by the one token request
 * that wins (a conditional UPDATE), so a device code is redeemed once across every instance.
 *
 * `ALTER TABLE … ADD COLUMN` with a default, as in 1790000000301: `oauth_clients` is never rebuilt.
 */
export class DeviceAuthorizations1790000000501 implements MigrationInterface {
  name = 'DeviceAuthorizations1790000000501';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_clients ADD COLUMN device_flow boolean NOT NULL DEFAULT false');
    const fk = (column: string, table: string) =>
      new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });
    await q.createTable(
      new Table({
        name: 'oauth_device_authorizations',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'device_code_hash', type: 'varchar', length: '64', isUnique: true },
          // Unique among every row kept: a new user code that meets one still stored is drawn again.
          { name: 'user_code_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'client_id', type: 'integer' },
          { name: 'scope', type: 'text' },
          // pending, approved or denied.
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'user_id', type: 'integer', isNullable: true },
          { name: 'auth_time', type: 'bigint', isNullable: true },
          { name: 'interval_seconds', type: 'integer' },
          { name: 'last_polled_at', type: 'bigint', isNullable: true },
          { name: 'expires_at', type: 'bigint' },
          { name: 'decided_at', type: 'bigint', isNullable: true },
          { name: 'redeemed_at', type: 'bigint', isNullable: true },
          { name: 'created_at', type: 'bigint' },
        ],
        foreignKeys: [fk('client_id', 'oauth_clients'), fk('user_id', 'users')],
        indices: [new TableIndex({ name: 'idx_oauth_device_expires_at', columnNames: ['expires_at'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('oauth_device_authorizations');
    await q.query('ALTER TABLE oauth_clients DROP COLUMN device_flow');
  }
}

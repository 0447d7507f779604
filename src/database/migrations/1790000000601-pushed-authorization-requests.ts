import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Pushed Authorization Requests (RFC 9126; docs/integrate-with-oauth.md, "Pushed authorization
 * requests"):
 *
 * - `oauth_pushed_requests`: one row per `request_uri`, kept by the SHA-256 of its random part (the
 *   value itself is never stored), bound to the client that pushed it, with the pushed parameters as
 *   JSON, when it expires and when it was used. In the shared database so that any instance can
 *   answer the authorize request that follows the push; the single use is a conditional UPDATE.
 * - `oauth_clients.require_par`: an application registered with `--require-par` may only start an
 *   authorization with a pushed request. Plain `ALTER TABLE` on both engines, as in 1790000000301: the
 *   clients table is never rebuilt (a rebuild would cascade to its codes, tokens and consents).
 */
export class PushedAuthorizationRequests1790000000601 implements MigrationInterface {
  name = 'PushedAuthorizationRequests1790000000601';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_clients ADD COLUMN require_par boolean NOT NULL DEFAULT false');
    await q.createTable(
      new Table({
        name: 'oauth_pushed_requests',
        columns: [
          { name: 'id_hash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'client_id', type: 'integer' },
          { name: 'parameters', type: 'text' },
          { name: 'expires_at', type: 'bigint' },
          { name: 'used_at', type: 'bigint', isNullable: true },
          { name: 'created_at', type: 'bigint' },
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['client_id'], referencedTableName: 'oauth_clients', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
        // The purge deletes by expiry; the cascade from a deleted client looks rows up by client.
        indices: [
          new TableIndex({ name: 'idx_oauth_pushed_requests_expires_at', columnNames: ['expires_at'] }),
          new TableIndex({ name: 'idx_oauth_pushed_requests_client_id', columnNames: ['client_id'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('oauth_pushed_requests');
    await q.query('ALTER TABLE oauth_clients DROP COLUMN require_par');
  }
}

import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

const id: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
const epoch = (name: string, nullable = false): TableColumnOptions => ({ name, type: 'bigint', isNullable: nullable });
const ref = (name: string, nullable = false): TableColumnOptions => ({ name, type: 'integer', isNullable: nullable });
const fk = (column: string, table: string, onDelete: 'CASCADE' | 'RESTRICT' | 'SET NULL' = 'CASCADE') =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete });

/**
 * The first schema. Written with TypeORM's portable Table API so the same migration runs on SQLite
 * and PostgreSQL; instants are epoch milliseconds in BIGINT columns (see database/columns.ts).
 */
export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'users',
        columns: [
          id,
          { name: 'email', type: 'varchar', length: '254', isUnique: true },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'password_hash', type: 'varchar', length: '255' },
          epoch('created_at'),
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'industries',
        columns: [id, { name: 'name', type: 'varchar', length: '100', isUnique: true }],
      }),
    );

    await q.createTable(
      new Table({
        name: 'startups',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'search_name', type: 'varchar', length: '200' },
          { name: 'slug', type: 'varchar', length: '220', isUnique: true },
          { name: 'description', type: 'text' },
          { name: 'website', type: 'varchar', length: '500', isNullable: true },
          { name: 'founded_year', type: 'integer' },
          { name: 'city', type: 'varchar', length: '100' },
          ref('industry_id'),
        ],
        foreignKeys: [fk('industry_id', 'industries', 'RESTRICT')],
        indices: [
          new TableIndex({ name: 'idx_startups_name', columnNames: ['name', 'id'] }),
          new TableIndex({ name: 'idx_startups_founded_year', columnNames: ['founded_year', 'id'] }),
          new TableIndex({ name: 'idx_startups_industry_id', columnNames: ['industry_id', 'name'] }),
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'tier', type: 'varchar', length: '20' },
          { name: 'key_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'prefix', type: 'varchar', length: '32' },
          epoch('created_at'),
          epoch('last_used_at', true),
          epoch('revoked_at', true),
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'oauth_clients',
        columns: [
          id,
          { name: 'client_id', type: 'varchar', length: '64', isUnique: true },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'type', type: 'varchar', length: '20' },
          { name: 'secret_hash', type: 'varchar', length: '64', isNullable: true },
          { name: 'redirect_uris', type: 'text' },
          { name: 'scopes', type: 'text' },
          epoch('created_at'),
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'oauth_authorization_codes',
        columns: [
          id,
          { name: 'code_hash', type: 'varchar', length: '64', isUnique: true },
          ref('client_id'),
          ref('user_id'),
          { name: 'redirect_uri', type: 'text' },
          { name: 'scope', type: 'text' },
          { name: 'code_challenge', type: 'varchar', length: '128', isNullable: true },
          { name: 'code_challenge_method', type: 'varchar', length: '10', isNullable: true },
          epoch('expires_at'),
          epoch('consumed_at', true),
          epoch('created_at'),
        ],
        foreignKeys: [fk('client_id', 'oauth_clients'), fk('user_id', 'users')],
        indices: [new TableIndex({ name: 'idx_oauth_codes_expires_at', columnNames: ['expires_at'] })],
      }),
    );

    await q.createTable(
      new Table({
        name: 'oauth_refresh_tokens',
        columns: [
          id,
          { name: 'token_hash', type: 'varchar', length: '64', isUnique: true },
          ref('client_id'),
          ref('user_id'),
          { name: 'scope', type: 'text' },
          { name: 'family_id', type: 'varchar', length: '36' },
          ref('authorization_code_id', true),
          epoch('expires_at'),
          epoch('rotated_at', true),
          epoch('revoked_at', true),
          epoch('created_at'),
        ],
        foreignKeys: [fk('client_id', 'oauth_clients'), fk('user_id', 'users'), fk('authorization_code_id', 'oauth_authorization_codes', 'SET NULL')],
        indices: [
          new TableIndex({ name: 'idx_oauth_refresh_family', columnNames: ['family_id'] }),
          new TableIndex({ name: 'idx_oauth_refresh_code', columnNames: ['authorization_code_id'] }),
          new TableIndex({ name: 'idx_oauth_refresh_expires_at', columnNames: ['expires_at'] }),
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'oauth_access_tokens',
        columns: [
          id,
          { name: 'token_hash', type: 'varchar', length: '64', isUnique: true },
          ref('client_id'),
          ref('user_id'),
          { name: 'scope', type: 'text' },
          { name: 'family_id', type: 'varchar', length: '36' },
          ref('refresh_token_id', true),
          epoch('expires_at'),
          epoch('revoked_at', true),
          epoch('created_at'),
        ],
        foreignKeys: [fk('client_id', 'oauth_clients'), fk('user_id', 'users'), fk('refresh_token_id', 'oauth_refresh_tokens', 'SET NULL')],
        indices: [
          new TableIndex({ name: 'idx_oauth_access_family', columnNames: ['family_id'] }),
          new TableIndex({ name: 'idx_oauth_access_refresh', columnNames: ['refresh_token_id'] }),
          new TableIndex({ name: 'idx_oauth_access_expires_at', columnNames: ['expires_at'] }),
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'oauth_consents',
        columns: [id, ref('user_id'), ref('client_id'), { name: 'scope', type: 'varchar', length: '500' }, epoch('created_at')],
        foreignKeys: [fk('client_id', 'oauth_clients'), fk('user_id', 'users')],
        uniques: [{ name: 'uq_oauth_consents_user_client_scope', columnNames: ['user_id', 'client_id', 'scope'] }],
      }),
    );

    await q.createTable(
      new Table({
        name: 'sign_in_throttles',
        columns: [
          { name: 'key', type: 'varchar', length: '300', isPrimary: true },
          { name: 'failures', type: 'integer' },
          epoch('window_started_at'),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'sign_in_throttles',
      'oauth_consents',
      'oauth_access_tokens',
      'oauth_refresh_tokens',
      'oauth_authorization_codes',
      'oauth_clients',
      'api_keys',
      'startups',
      'industries',
      'users',
    ]) {
      await q.dropTable(table);
    }
  }
}

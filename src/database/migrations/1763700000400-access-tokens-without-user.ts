import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

const withUser = new TableColumn({ name: 'user_id', type: 'integer', isNullable: false });
const userOptional = new TableColumn({ name: 'user_id', type: 'integer', isNullable: true });

/**
 * An access token of the client-credentials grant (RFC 6749 §4.4) acts for its client alone: it has
 * no user. PostgreSQL drops the NOT NULL in place; SQLite cannot alter a column, so TypeORM rebuilds
 * the table (rows, foreign keys and indexes kept).
 */
export class AccessTokensWithoutUser1763700000400 implements MigrationInterface {
  name = 'AccessTokensWithoutUser1763700000400';

  async up(q: QueryRunner): Promise<void> {
    await q.changeColumn('oauth_access_tokens', 'user_id', userOptional);
  }

  async down(q: QueryRunner): Promise<void> {
    // Tokens without a user cannot be kept under the old schema.
    await q.query('DELETE FROM oauth_access_tokens WHERE user_id IS NULL');
    await q.changeColumn('oauth_access_tokens', 'user_id', withUser);
  }
}

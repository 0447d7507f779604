import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';

/**
 * The links mailed about an existing account (README.md, Your account): a password reset, or the
 * confirmation of a new address. Each token is stored only as its SHA-256 hash, used once (`used_at`,
 * set by one conditional UPDATE), expiring; it goes with its account.
 *
 * `users.sessions_valid_from`: sign-in sessions of the account that began before this instant are
 * refused on every instance (a password reset ends every session; a change of password every other one).
 * Sessions are sealed cookies, so this one column is what ends them all at once.
 */
export class AccountMailTokens1790000002903 implements MigrationInterface {
  name = 'AccountMailTokens1790000002903';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('users', new TableColumn({ name: 'sessions_valid_from', type: 'bigint', isNullable: true }));
    await q.createTable(
      new Table({
        name: 'account_mail_tokens',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer' },
          // reset_password or change_email.
          { name: 'purpose', type: 'varchar', length: '20' },
          { name: 'token_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'new_email', type: 'varchar', length: '254', isNullable: true },
          { name: 'expires_at', type: 'bigint' },
          { name: 'used_at', type: 'bigint', isNullable: true },
          { name: 'created_at', type: 'bigint' },
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
        indices: [
          new TableIndex({ name: 'idx_account_mail_tokens_user', columnNames: ['user_id'] }),
          new TableIndex({ name: 'idx_account_mail_tokens_expires_at', columnNames: ['expires_at'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('account_mail_tokens');
    await q.dropColumn('users', 'sessions_valid_from');
  }
}

import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * A second factor for password sign-ins (docs/second-factor.md, SECURITY.md "Second factor"):
 * - `totp_authenticators`: at most one authenticator app per user (RFC 6238). Its secret is encrypted
 *   with the key derived from KEY_ENCRYPTION_SECRET, as the signing keys are; `confirmed_at` is null
 *   while it is being set up (no sign-in asks for it yet). `last_used_step` is the RFC 6238 time step of
 *   the last code accepted: a conditional UPDATE moves it forward, so each code works once on every
 *   instance (RFC 6238 §5.2).
 * - `recovery_codes`: the SHA-256 of each recovery code; `used_at` is set by the one sign-in that uses it.
 */
export class SecondFactor1790000000901 implements MigrationInterface {
  name = 'SecondFactor1790000000901';

  async up(q: QueryRunner): Promise<void> {
    const toUsers = () => new TableForeignKey({ columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' });
    await q.createTable(
      new Table({
        name: 'totp_authenticators',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'secret_encrypted', type: 'text' },
          { name: 'confirmed_at', type: 'bigint', isNullable: true },
          { name: 'last_used_step', type: 'bigint', isNullable: true },
          { name: 'created_at', type: 'bigint' },
        ],
        foreignKeys: [toUsers()],
      }),
    );
    await q.createTable(
      new Table({
        name: 'recovery_codes',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer' },
          { name: 'code_hash', type: 'varchar', length: '64' },
          { name: 'used_at', type: 'bigint', isNullable: true },
          { name: 'created_at', type: 'bigint' },
        ],
        foreignKeys: [toUsers()],
        indices: [new TableIndex({ name: 'idx_recovery_codes_user_code', columnNames: ['user_id', 'code_hash'], isUnique: true })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('recovery_codes');
    await q.dropTable('totp_authenticators');
  }
}

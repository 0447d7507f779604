import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Passkeys (WebAuthn Level 3; docs/second-factor.md, "Passkeys"):
 * - `passkeys`: one row per credential: its id (base64url, as the authenticator gave it), its user, the
 *   COSE public key (base64url), the signature counter, the transports the browser reported, the name
 *   the user gave it, when it was added and last used.
 * - `passkey_challenges_used`: the SHA-256 of each challenge a ceremony has used, until the challenge
 *   expires, so that a challenge works once on every instance (the challenges themselves are sealed and
 *   carried by the page, bound to the browser's session).
 */
export class Passkeys1790000000903 implements MigrationInterface {
  name = 'Passkeys1790000000903';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'passkeys',
        columns: [
          { name: 'id', type: 'varchar', length: '255', isPrimary: true },
          { name: 'user_id', type: 'integer' },
          { name: 'public_key', type: 'text' },
          { name: 'counter', type: 'bigint' },
          { name: 'transports', type: 'varchar', length: '200', isNullable: true },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'created_at', type: 'bigint' },
          { name: 'last_used_at', type: 'bigint', isNullable: true },
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
        indices: [new TableIndex({ name: 'idx_passkeys_user', columnNames: ['user_id'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'passkey_challenges_used',
        columns: [
          { name: 'challenge_hash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'expires_at', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'idx_passkey_challenges_used_expires_at', columnNames: ['expires_at'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('passkey_challenges_used');
    await q.dropTable('passkeys');
  }
}

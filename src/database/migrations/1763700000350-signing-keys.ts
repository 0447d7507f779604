import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * The ID-token signing keys (docs/integrate-with-oauth.md, OpenID Connect). At most one `active` key per algorithm, enforced by a partial
 * unique index on both engines, so two instances creating or rotating keys at once can never both win.
 * The JWKS and every instance's key cache read the keys that are not retired.
 */
export class SigningKeys1763700000350 implements MigrationInterface {
  name = 'SigningKeys1763700000350';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'signing_keys',
        columns: [
          { name: 'kid', type: 'varchar', length: '64', isPrimary: true },
          { name: 'alg', type: 'varchar', length: '10' },
          { name: 'state', type: 'varchar', length: '10' },
          { name: 'public_jwk', type: 'text' },
          { name: 'private_key', type: 'text' },
          { name: 'generated_secret', type: 'integer', default: 0 },
          { name: 'created_at', type: 'bigint' },
          { name: 'deactivated_at', type: 'bigint', isNullable: true },
          { name: 'retire_at', type: 'bigint', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'uq_signing_keys_active_alg', columnNames: ['alg'], isUnique: true, where: "state = 'active'" }),
          new TableIndex({ name: 'idx_signing_keys_state', columnNames: ['state', 'created_at'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('signing_keys');
  }
}

import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * DPoP (RFC 9449), docs/integrate-with-oauth.md "Bind tokens to a key with DPoP":
 * - `jkt` on access and refresh tokens: the RFC 7638 SHA-256 thumbprint of the key a token is bound to
 *   (43 base64url characters), null for a Bearer token. A refresh token is bound only for a public
 *   client (RFC 9449 §5).
 * - `dpop_proofs`: the proofs already used, so that a replayed `jti` is refused on every instance when
 *   no Redis is configured. A row is needed only while its proof could still be accepted; the purge
 *   deletes it after, hence the index on the instant alone.
 *
 * Plain `ALTER TABLE … ADD COLUMN` of a nullable column: in place on both engines, no table rebuild.
 */
export class Dpop1790000000701 implements MigrationInterface {
  name = 'Dpop1790000000701';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_access_tokens ADD COLUMN jkt varchar(64) NULL');
    await q.query('ALTER TABLE oauth_refresh_tokens ADD COLUMN jkt varchar(64) NULL');
    await q.createTable(
      new Table({
        name: 'dpop_proofs',
        columns: [
          { name: 'proof_hash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'expires_at', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'idx_dpop_proofs_expires_at', columnNames: ['expires_at'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('dpop_proofs');
    await q.query('ALTER TABLE oauth_refresh_tokens DROP COLUMN jkt');
    await q.query('ALTER TABLE oauth_access_tokens DROP COLUMN jkt');
  }
}

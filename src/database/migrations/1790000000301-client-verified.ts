import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Clients gain `verified` (docs/integrate-with-oauth.md, "Verified and unverified applications"): the
 * operator vouches for them. Those made with the CLI (no owner) are the operator's own and start
 * verified; those registered in the developer portal (with an owner) start unverified until an operator
 * runs `clients:verify`. The column's default is false, so a row inserted without it is never trusted
 * by accident.
 *
 * Plain `ALTER TABLE` on both engines: SQLite adds a NOT NULL column with a default in place, and drops
 * a column that is neither indexed nor a key in place too (SQLite ≥ 3.35), so `oauth_clients` is never
 * rebuilt (a rebuild would cascade to its codes, tokens and consents, see 1763700000200).
 */
export class ClientVerified1790000000301 implements MigrationInterface {
  name = 'ClientVerified1790000000301';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_clients ADD COLUMN verified boolean NOT NULL DEFAULT false');
    await q.query('UPDATE oauth_clients SET verified = true WHERE owner_id IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_clients DROP COLUMN verified');
  }
}

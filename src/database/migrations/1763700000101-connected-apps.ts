import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Connected apps (README.md, Your account). `last_used_at`: when an application last received a token for the user,
 * written with each token a grant issues (code redemption, refresh), never per API request; empty for
 * consents given before it existed, until their next token. The index finds a user's refresh tokens of
 * one client for Revoke access (their families hold the access tokens too).
 */
export class ConnectedApps1763700000101 implements MigrationInterface {
  name = 'ConnectedApps1763700000101';

  async up(q: QueryRunner): Promise<void> {
    // A plain ADD COLUMN: the same statement on both engines, and SQLite needs no table rebuild.
    await q.query('ALTER TABLE oauth_consents ADD COLUMN last_used_at BIGINT NULL');
    await q.createIndex('oauth_refresh_tokens', new TableIndex({ name: 'idx_oauth_refresh_user_client', columnNames: ['user_id', 'client_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('oauth_refresh_tokens', 'idx_oauth_refresh_user_client');
    await q.query('ALTER TABLE oauth_consents DROP COLUMN last_used_at');
  }
}

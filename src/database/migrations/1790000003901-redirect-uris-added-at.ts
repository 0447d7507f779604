import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `oauth_clients.redirect_uris_added_at`: when the client last gained a redirect URI it did not have (an
 * edit in the developer portal, an RFC 7592 update). A consent given before then is not remembered:
 * every user is asked again before a code goes to the new address (docs/integrate-with-oauth.md,
 * "Consent"). Null for a client whose redirect URIs only ever were those it was registered with.
 */
export class RedirectUrisAddedAt1790000003901 implements MigrationInterface {
  name = 'RedirectUrisAddedAt1790000003901';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_clients ADD COLUMN redirect_uris_added_at bigint NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_clients DROP COLUMN redirect_uris_added_at');
  }
}

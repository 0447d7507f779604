import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `oauth_consents.redirect_uris`: the redirect URIs a consent covers (JSON, as
 * `oauth_clients.redirect_uris`): the client's when it was first given, and those it was given through
 * since. A remembered consent sends a code without a page only to one of them (docs/integrate-with-oauth.md,
 * step 2), so that a redirect URI added to the client later (an edit, an RFC 7592 update, a changed
 * metadata document) never receives a code the user did not see a consent page for. Each consent given
 * before this migration covers the redirect URIs its client has now.
 */
export class ConsentRedirectUris1790000003901 implements MigrationInterface {
  name = 'ConsentRedirectUris1790000003901';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_consents ADD COLUMN redirect_uris text NULL');
    await q.query('UPDATE oauth_consents SET redirect_uris = (SELECT c.redirect_uris FROM oauth_clients c WHERE c.id = oauth_consents.client_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_consents DROP COLUMN redirect_uris');
  }
}

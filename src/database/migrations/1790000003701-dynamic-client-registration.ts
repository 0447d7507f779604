import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dynamic client registration (RFC 7591) and its management (RFC 7592), docs/integrate-with-oauth.md
 * "Register a client dynamically". A client registered at `POST /oauth/register` keeps the SHA-256 of its
 * registration access token (never the token) and the metadata it registered that no other column holds:
 * `application_type`, `token_endpoint_auth_method`, `client_uri`, `logo_uri`. The token's hash is null for
 * every other client, so it also says which clients RFC 7592 may manage. `authorized_at` is when a user
 * first allowed the client anything (for any client): one registered dynamically that no user ever
 * authorized is purged 30 days after its registration. It is filled here from the consents already given.
 *
 * Plain `ALTER TABLE … ADD COLUMN` of nullable columns: in place on both engines, so `oauth_clients` is
 * never rebuilt (a rebuild would cascade to its codes, tokens and consents, see 1763700000200).
 */
export class DynamicClientRegistration1790000003701 implements MigrationInterface {
  name = 'DynamicClientRegistration1790000003701';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_clients ADD COLUMN registration_access_token_hash varchar(64) NULL');
    await q.query('ALTER TABLE oauth_clients ADD COLUMN application_type varchar(10) NULL');
    await q.query('ALTER TABLE oauth_clients ADD COLUMN token_endpoint_auth_method varchar(30) NULL');
    await q.query('ALTER TABLE oauth_clients ADD COLUMN client_uri varchar(2000) NULL');
    await q.query('ALTER TABLE oauth_clients ADD COLUMN logo_uri varchar(2000) NULL');
    await q.query('ALTER TABLE oauth_clients ADD COLUMN authorized_at bigint NULL');
    await q.query('UPDATE oauth_clients SET authorized_at = (SELECT MIN(cs.created_at) FROM oauth_consents cs WHERE cs.client_id = oauth_clients.id)');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const column of ['authorized_at', 'logo_uri', 'client_uri', 'token_endpoint_auth_method', 'application_type', 'registration_access_token_hash']) {
      await q.query(`ALTER TABLE oauth_clients DROP COLUMN ${column}`);
    }
  }
}

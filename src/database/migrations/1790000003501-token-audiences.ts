import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables of a grant and its tokens, each of which records the resource it is for. */
const TABLES = ['oauth_authorization_codes', 'oauth_device_authorizations', 'oauth_refresh_tokens', 'oauth_access_tokens'];

/**
 * Resource indicators (RFC 8707), docs/integrate-with-oauth.md "Resource indicators": `resource` is the
 * identifier of the protected resource a grant was asked for (a code, a device authorization, and the
 * refresh tokens of the grant) and the audience of each access token. Null on rows written before this
 * migration: their grant never named a resource, so it is for the public API, as it always was.
 *
 * Plain `ALTER TABLE … ADD COLUMN` of a nullable column: in place on both engines, no table rebuild.
 */
export class TokenAudiences1790000003501 implements MigrationInterface {
  name = 'TokenAudiences1790000003501';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.query(`ALTER TABLE ${table} ADD COLUMN resource varchar(255) NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) await q.query(`ALTER TABLE ${table} DROP COLUMN resource`);
  }
}

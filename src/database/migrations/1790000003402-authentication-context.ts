import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The authentication context class a grant met (OIDC Core §2 `acr`, docs/integrate-with-oauth.md,
 * "Asking for a second factor"): set when the authorization request asked for
 * `urn:startup-platform:acr:mfa` and the sign-in used two factors, kept by the code and by the refresh
 * token, so that every ID token of the grant states it, as `amr` is kept. Null otherwise.
 */
export class AuthenticationContext1790000003402 implements MigrationInterface {
  name = 'AuthenticationContext1790000003402';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_authorization_codes ADD COLUMN acr varchar(64) NULL');
    await q.query('ALTER TABLE oauth_refresh_tokens ADD COLUMN acr varchar(64) NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_refresh_tokens DROP COLUMN acr');
    await q.query('ALTER TABLE oauth_authorization_codes DROP COLUMN acr');
  }
}

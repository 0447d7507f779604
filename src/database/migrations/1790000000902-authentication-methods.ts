import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * RFC 8176 authentication method references (docs/integrate-with-oauth.md, "How the user signed in"):
 * how the user signed in (`pwd`; `pwd otp mfa` with an authenticator app), space-separated, carried from
 * the sign-in session to the code or device authorization, then to the refresh tokens of that grant, so
 * that every ID token of the grant states the same `amr`. Null for grants made before this column.
 *
 * Plain `ALTER TABLE … ADD COLUMN` of a nullable column: in place on both engines, no table rebuild.
 */
export class AuthenticationMethods1790000000902 implements MigrationInterface {
  name = 'AuthenticationMethods1790000000902';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_authorization_codes ADD COLUMN amr varchar(64) NULL');
    await q.query('ALTER TABLE oauth_refresh_tokens ADD COLUMN amr varchar(64) NULL');
    await q.query('ALTER TABLE oauth_device_authorizations ADD COLUMN amr varchar(64) NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_device_authorizations DROP COLUMN amr');
    await q.query('ALTER TABLE oauth_refresh_tokens DROP COLUMN amr');
    await q.query('ALTER TABLE oauth_authorization_codes DROP COLUMN amr');
  }
}

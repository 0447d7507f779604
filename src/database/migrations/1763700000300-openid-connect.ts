import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * OpenID Connect (docs/integrate-with-oauth.md, OpenID Connect), beside the signing keys (1763700000350):
 * - `oauth_clients.id_token_signed_response_alg` (the OpenID Connect Registration name): RS256 unless a
 *   client is registered for ES256.
 * - `oauth_authorization_codes.nonce` and `auth_time`, carried from the authorization request into the
 *   ID token; `oauth_refresh_tokens.auth_time`, so an ID token from a refresh keeps the original sign-in
 *   time after the code row has been purged.
 */
export class OpenIdConnect1763700000300 implements MigrationInterface {
  name = 'OpenIdConnect1763700000300';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('oauth_clients', new TableColumn({ name: 'id_token_signed_response_alg', type: 'varchar', length: '8', default: "'RS256'" }));
    await q.addColumn('oauth_authorization_codes', new TableColumn({ name: 'nonce', type: 'varchar', length: '512', isNullable: true }));
    await q.addColumn('oauth_authorization_codes', new TableColumn({ name: 'auth_time', type: 'bigint', isNullable: true }));
    await q.addColumn('oauth_refresh_tokens', new TableColumn({ name: 'auth_time', type: 'bigint', isNullable: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('oauth_refresh_tokens', 'auth_time');
    await q.dropColumn('oauth_authorization_codes', 'auth_time');
    await q.dropColumn('oauth_authorization_codes', 'nonce');
    await q.dropColumn('oauth_clients', 'id_token_signed_response_alg');
  }
}

import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * `users.email_verified` (README.md, Your account; OpenID Connect Core §5.1): whether the account's address
 * is confirmed. Every account made so far was made by an operator (`users:create`, who vouches for the
 * address) or by a sign-up whose link was used, so existing rows and the default are true; the ID token
 * and UserInfo state it.
 */
export class EmailVerified1790000002904 implements MigrationInterface {
  name = 'EmailVerified1790000002904';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('users', new TableColumn({ name: 'email_verified', type: 'boolean', default: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('users', 'email_verified');
  }
}

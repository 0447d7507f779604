import { DataSource, MigrationInterface } from 'typeorm';
import { parseEnvironment } from '../../src/config/configuration';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { CanonicalEmailAddresses1790000003201 } from '../../src/database/migrations/1790000003201-canonical-email-addresses';
import { isolatedStorage } from '../helpers/test-app';

/**
 * The migration that brings stored addresses to their canonical form (docs/configuration-and-deployment.md,
 * "Addresses in one form"), on the engine of this run (SQLite, or PostgreSQL in e2e:postgres): accounts
 * whose addresses are one mailbox are reported and left as they were, never merged.
 */
describe('migration 1790000003201: addresses in their canonical form', () => {
  it('rewrites the addresses that are alone in their mailbox, and reports and leaves accounts that share one or have no canonical form', async () => {
    const storage = await isolatedStorage();
    const options = dataSourceOptions(parseEnvironment(storage.env).database);
    const all = options.migrations as Array<new () => MigrationInterface>;
    const before = all.slice(0, all.indexOf(CanonicalEmailAddresses1790000003201));
    const old = await new DataSource({ ...options, migrations: before } as typeof options).initialize();
    const users = ['ali@örnek.com', 'bob@örnek.com', 'bob@xn--rnek-4qa.com', 'plain@example.com', '"quoted"@example.com', 'soft@exam\u00ADple.com'];
    try {
      await old.runMigrations({ transaction: 'each' });
      for (const [i, email] of users.entries()) {
        await old.query(`INSERT INTO users (email, name, password_hash, created_at) VALUES ('${email.replace(/'/g, "''")}', 'U${i}', 'x', 1)`);
      }
      await old.query(`INSERT INTO pending_registrations (email, name, password_hash, token_hash, expires_at, created_at) VALUES ('new@örnek.com', 'N', 'x', 't1', 9, 1), ('dup@örnek.com', 'D', 'x', 't2', 9, 1), ('dup@xn--rnek-4qa.com', 'D', 'x', 't3', 9, 1), ('"q"@example.com', 'Q', 'x', 't4', 9, 1)`);
      await old.query(`INSERT INTO account_mail_tokens (user_id, purpose, token_hash, new_email, expires_at, created_at) VALUES (4, 'change_email', 'm1', 'next@örnek.com', 9, 1), (4, 'change_email', 'm2', 'x@[1.2.3.4]', 9, 1), (4, 'reset_password', 'm3', NULL, 9, 1)`);
    } finally {
      await old.destroy();
    }

    const migrated = await new DataSource(options).initialize();
    try {
      await migrated.runMigrations({ transaction: 'each' });
      const rows: Array<{ id: number | string; email: string }> = await migrated.query('SELECT id, email FROM users ORDER BY id');
      expect(rows.map((row) => [Number(row.id), row.email])).toEqual([
        [1, 'ali@xn--rnek-4qa.com'],
        // One mailbox, two accounts: both left as they were, for the operator.
        [2, 'bob@örnek.com'],
        [3, 'bob@xn--rnek-4qa.com'],
        [4, 'plain@example.com'],
        [5, '"quoted"@example.com'],
        [6, 'soft@exam\u00ADple.com'],
      ]);
      expect(CanonicalEmailAddresses1790000003201.lastReport).toEqual({
        collisions: [{ canonical: 'bob@xn--rnek-4qa.com', userIds: [2, 3] }],
        refused: [
          { userId: 5, problem: 'quoted' },
          { userId: 6, problem: 'invisible' },
        ],
        rewritten: 1,
      });
      const pending: Array<{ email: string; token_hash: string }> = await migrated.query('SELECT email, token_hash FROM pending_registrations ORDER BY token_hash');
      expect(pending).toEqual([
        { email: 'new@xn--rnek-4qa.com', token_hash: 't1' },
        { email: 'dup@xn--rnek-4qa.com', token_hash: 't3' },
      ]);
      const tokens: Array<{ token_hash: string; new_email: string | null }> = await migrated.query('SELECT token_hash, new_email FROM account_mail_tokens ORDER BY token_hash');
      expect(tokens).toEqual([
        { token_hash: 'm1', new_email: 'next@xn--rnek-4qa.com' },
        { token_hash: 'm3', new_email: null },
      ]);
    } finally {
      await migrated.destroy();
      await storage.drop();
    }
  });
});

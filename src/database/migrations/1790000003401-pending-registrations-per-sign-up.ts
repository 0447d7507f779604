import { MigrationInterface, QueryRunner, TableIndex, TableUnique } from 'typeorm';

/**
 * Several pending sign-ups of one address (SECURITY.md, "Pre-registering someone else's address"): each
 * keeps its own link, which is confirmed with the password chosen in that sign-up, so a stranger's
 * sign-up no longer takes the place of the owner's (or the other way round). The address stops being
 * unique and gets an index of its own, for retiring an address's other sign-ups when one is confirmed.
 * TypeORM rebuilds the table on SQLite to drop the constraint, keeping its rows.
 */
export class PendingRegistrationsPerSignUp1790000003401 implements MigrationInterface {
  name = 'PendingRegistrationsPerSignUp1790000003401';

  async up(q: QueryRunner): Promise<void> {
    const table = (await q.getTable('pending_registrations'))!;
    const unique = table.uniques.find((u) => u.columnNames.length === 1 && u.columnNames[0] === 'email');
    if (unique) await q.dropUniqueConstraint(table, unique);
    await q.createIndex('pending_registrations', new TableIndex({ name: 'idx_pending_registrations_email', columnNames: ['email'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('pending_registrations', 'idx_pending_registrations_email');
    // Only the newest sign-up of each address can stay under the unique address of 1790000002902.
    await q.query('DELETE FROM pending_registrations WHERE id NOT IN (SELECT MAX(id) FROM pending_registrations GROUP BY email)');
    await q.createUniqueConstraint('pending_registrations', new TableUnique({ columnNames: ['email'] }));
  }
}

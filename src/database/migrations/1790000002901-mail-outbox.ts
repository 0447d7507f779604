import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * The mail outbox (docs/mail.md): an action that sends mail writes the whole message here in the same
 * transaction as its change, and the sender delivers it later, retrying with backoff while the mail
 * server is down. `next_attempt_at` is when a mail is due; a sender claims it by moving that instant a
 * lease ahead in one conditional UPDATE, so each mail is taken by one sender on one instance at a time,
 * and one whose sender died is due again when its lease ends. A delivered mail is deleted.
 */
export class MailOutbox1790000002901 implements MigrationInterface {
  name = 'MailOutbox1790000002901';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'mail_outbox',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'recipient', type: 'varchar', length: '254' },
          { name: 'subject', type: 'varchar', length: '300' },
          { name: 'text_body', type: 'text' },
          { name: 'html_body', type: 'text' },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'next_attempt_at', type: 'bigint' },
          { name: 'last_error', type: 'varchar', length: '500', isNullable: true },
          { name: 'created_at', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'idx_mail_outbox_due', columnNames: ['next_attempt_at'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('mail_outbox');
  }
}

import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { EpochColumn } from '../database/columns';

/** One mail waiting in the outbox (docs/mail.md), as migration 1790000002901 made it. */
@Entity({ name: 'mail_outbox' })
@Index('idx_mail_outbox_due', ['nextAttemptAt'])
export class OutboxMail {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 254 })
  recipient: string;

  @Column({ type: 'varchar', length: 300 })
  subject: string;

  @Column({ name: 'text_body', type: 'text' })
  textBody: string;

  @Column({ name: 'html_body', type: 'text' })
  htmlBody: string;

  /** Delivery attempts so far, the one under way included. */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** When the mail is due (epoch ms); while a sender holds it, the end of its lease. */
  @Column(EpochColumn({ name: 'next_attempt_at' }))
  nextAttemptAt: number;

  /** Why the last attempt failed, for the operator (the mail server's answer, never a credential). */
  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;
}

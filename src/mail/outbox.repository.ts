import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { oidcConfig } from '../config/configuration';
import { statements, Tx } from '../database/transaction';
import { KeyDecryptionError, KeyEncryption } from '../oidc/keys/key-encryption';

/** A rendered mail, ready for the outbox. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A mail a sender has claimed: it holds it until its lease ends. */
export interface ClaimedMail extends Mail {
  id: number;
  attempts: number;
  /** When the mail was written (epoch ms): MAIL_RETRY_HOURS counts from here. */
  createdAt: number;
}

/**
 * What a claim took: the mails to send, and the ids of those whose bodies cannot be opened (encrypted
 * under another KEY_ENCRYPTION_SECRET, or altered), which the sender drops.
 */
export interface Claimed {
  mails: ClaimedMail[];
  unreadable: number[];
}

/** What the outbox holds, for `/health/ready` and the metrics (docs/mail.md). */
export interface OutboxStats {
  pending: number;
  /** Seconds since the oldest mail still waiting was written; 0 when none waits. */
  oldestAgeSeconds: number;
  /** Mails waiting whose last attempt failed. */
  failing: number;
}

interface ClaimedRow {
  id: number | string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number | string;
  created_at: number | string;
}

/**
 * The mail outbox (`mail_outbox`, docs/mail.md). `enqueue` is a statement of the caller's transaction,
 * so a mail is written with the change it tells about, or not at all. `claim` takes due mails in one
 * conditional UPDATE that moves their due time a lease ahead: on PostgreSQL the rows are picked
 * `FOR UPDATE SKIP LOCKED`, so two senders never take the same mail; SQLite has one writer at a time,
 * so its single UPDATE is the claim. A sender that dies holding mails leaves them due again when the
 * lease ends.
 */
@Injectable()
export class OutboxRepository {
  /** The bodies at rest (SECURITY.md, "Secrets at rest"): a mail's links are live tokens until it is sent. */
  private readonly bodies: KeyEncryption;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(oidcConfig.KEY) oidc: ConfigType<typeof oidcConfig>,
  ) {
    this.bodies = new KeyEncryption(oidc.keyEncryptionSecret);
  }

  /**
   * Written with the bodies encrypted (AES-256-GCM under KEY_ENCRYPTION_SECRET), each bound to its part
   * and its recipient, so a body cannot be moved to another row: a reset link waiting in the outbox is no
   * more readable in a copy of the database than the token's hash beside it.
   */
  async enqueue(tx: Tx, mail: Mail, now: number): Promise<void> {
    const p = tx.p;
    await tx.run(
      `INSERT INTO mail_outbox (recipient, subject, text_body, html_body, attempts, next_attempt_at, created_at)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, 0, ${p(5)}, ${p(6)})`,
      [mail.to, mail.subject.slice(0, 300), this.bodies.encrypt(mail.text, bodyAad('text', mail.to)), this.bodies.encrypt(mail.html, bodyAad('html', mail.to)), now, now],
    );
  }

  async claim(now: number, leaseMs: number, limit: number): Promise<Claimed> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const lock = this.dataSource.options.type === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
    const { rows } = await sql.run<ClaimedRow>(
      `UPDATE mail_outbox SET next_attempt_at = ${p(1)}, attempts = attempts + 1
       WHERE id IN (SELECT id FROM mail_outbox WHERE next_attempt_at <= ${p(2)} ORDER BY next_attempt_at, id LIMIT ${Number(limit)} ${lock})
       RETURNING id, recipient, subject, text_body, html_body, attempts, created_at`,
      [now + leaseMs, now],
    );
    const claimed: Claimed = { mails: [], unreadable: [] };
    for (const row of rows) {
      const id = Number(row.id);
      try {
        claimed.mails.push({
          id,
          to: row.recipient,
          subject: row.subject,
          text: this.open(row.text_body, bodyAad('text', row.recipient)),
          html: this.open(row.html_body, bodyAad('html', row.recipient)),
          attempts: Number(row.attempts),
          createdAt: Number(row.created_at),
        });
      } catch (error) {
        if (!(error instanceof KeyDecryptionError)) throw error;
        claimed.unreadable.push(id);
      }
    }
    return claimed;
  }

  /** A stored body: decrypted, or as it is when it was written in clear, before bodies were encrypted. */
  private open(stored: string, aad: string): string {
    return KeyEncryption.secretIdOf(stored) === undefined ? stored : this.bodies.decrypt(stored, aad);
  }

  /** Delivered: the mail leaves the outbox. */
  async delivered(id: number): Promise<void> {
    const sql = statements(this.dataSource);
    await sql.run(`DELETE FROM mail_outbox WHERE id = ${sql.p(1)}`, [id]);
  }

  /**
   * Dropped (docs/mail.md, "When a mail cannot arrive"): refused for good, or not taken for
   * MAIL_RETRY_HOURS. It leaves the outbox, so readiness and the gauges count only mails still retried.
   */
  async dropped(id: number): Promise<void> {
    const sql = statements(this.dataSource);
    await sql.run(`DELETE FROM mail_outbox WHERE id = ${sql.p(1)}`, [id]);
  }

  /** Not delivered: due again at `retryAt`, with the reason kept for the operator. */
  async failed(id: number, retryAt: number, reason: string): Promise<void> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    await sql.run(`UPDATE mail_outbox SET next_attempt_at = ${p(1)}, last_error = ${p(2)} WHERE id = ${p(3)}`, [retryAt, reason.slice(0, 500), id]);
  }

  /**
   * What the public readiness check shows: only the mails being retried (their last attempt failed), and
   * how long the oldest of them has waited. A mail not yet tried is left out: a forgotten-password request
   * writes one only for an address that has an account, so counting it would tell anyone polling the
   * check which addresses do (docs/mail.md, Watching the outbox).
   */
  async retrying(now: number): Promise<{ failing: number; oldestAgeSeconds: number }> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<{ failing: number | string; oldest: number | string | null }>(
      `SELECT COUNT(*) AS failing, MIN(created_at) AS oldest FROM mail_outbox WHERE last_error IS NOT NULL`,
    );
    const oldest = rows[0]?.oldest === null || rows[0]?.oldest === undefined ? null : Number(rows[0].oldest);
    return { failing: Number(rows[0]?.failing ?? 0), oldestAgeSeconds: oldest === null ? 0 : Math.max(0, Math.floor((now - oldest) / 1000)) };
  }

  async stats(now: number): Promise<OutboxStats> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<{ pending: number | string; oldest: number | string | null; failing: number | string | null }>(
      `SELECT COUNT(*) AS pending, MIN(created_at) AS oldest, SUM(CASE WHEN last_error IS NULL THEN 0 ELSE 1 END) AS failing FROM mail_outbox`,
    );
    const row = rows[0];
    const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
    return {
      pending: Number(row?.pending ?? 0),
      oldestAgeSeconds: oldest === null ? 0 : Math.max(0, Math.floor((now - oldest) / 1000)),
      failing: Number(row?.failing ?? 0),
    };
  }
}

/** The associated data of a stored body: which part of the mail, and to whom. */
function bodyAad(part: 'text' | 'html', recipient: string): string {
  return `mail_outbox ${part} ${recipient}`;
}

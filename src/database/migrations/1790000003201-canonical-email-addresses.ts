import { Logger } from '@nestjs/common';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { canonicalEmail } from '../../common/text/email-address';
import { param } from '../sql';

const logger = new Logger('Migration CanonicalEmailAddresses');

/** What the migration found among the accounts: the rows it left as they were, for the operator. */
export interface CanonicalEmailReport {
  /** Accounts whose addresses are one mailbox: each group's ids, and the canonical form they share. */
  collisions: Array<{ canonical: string; userIds: number[] }>;
  /** Accounts whose stored address has no canonical form (quoted, invisible characters, IP literal, …). */
  refused: Array<{ userId: number; problem: string }>;
  /** Accounts whose address was rewritten to its canonical form. */
  rewritten: number;
}

/**
 * Every stored address in its canonical form (src/common/text/email-address.ts; docs/configuration-and-
 * deployment.md, "Addresses in one form"), since sign-in, uniqueness and the mail budgets now compare that
 * form only.
 *
 * - `users.email`: rewritten when its canonical form is its alone. Accounts whose addresses turn out to
 *   be one mailbox (`bob@örnek.com` and `bob@xn--rnek-4qa.com`) are NOT merged: they are left as they
 *   were and each group is logged as a warning with the accounts' ids, for the operator to decide which
 *   keeps the address; an address with no canonical form (a quoted local part, an invisible character)
 *   is left and logged the same way. The migration succeeds either way, so a start is never blocked.
 * - `pending_registrations.email` and `account_mail_tokens.new_email`: short-lived (the mailed link's
 *   lifetime). Rewritten likewise; one whose address has no canonical form, or whose canonical form
 *   another pending sign-up already has, is deleted (its link stops working; the person signs up or
 *   asks again), and the count is logged.
 *
 * No down step restores the old spellings: they were the same mailboxes.
 */
export class CanonicalEmailAddresses1790000003201 implements MigrationInterface {
  name = 'CanonicalEmailAddresses1790000003201';

  /** The last run's findings (tests read them; the log says the same). */
  static lastReport: CanonicalEmailReport | undefined;

  async up(q: QueryRunner): Promise<void> {
    CanonicalEmailAddresses1790000003201.lastReport = await canonicaliseUsers(q);
    await canonicalisePending(q);
    await canonicaliseNewEmails(q);
  }

  async down(): Promise<void> {
    // Nothing to undo: the canonical form reaches the same mailbox as the spelling it replaced.
  }
}

async function canonicaliseUsers(q: QueryRunner): Promise<CanonicalEmailReport> {
  const rows: Array<{ id: number | string; email: string }> = await q.query('SELECT id, email FROM users ORDER BY id');
  const groups = new Map<string, Array<{ id: number; email: string }>>();
  const report: CanonicalEmailReport = { collisions: [], refused: [], rewritten: 0 };
  for (const row of rows) {
    const id = Number(row.id);
    const canonical = canonicalEmail(row.email);
    if (!canonical.ok) {
      report.refused.push({ userId: id, problem: canonical.problem });
      continue;
    }
    const group = groups.get(canonical.email) ?? [];
    group.push({ id, email: row.email });
    groups.set(canonical.email, group);
  }
  for (const [canonical, group] of groups) {
    if (group.length > 1) {
      report.collisions.push({ canonical, userIds: group.map((row) => row.id) });
      continue;
    }
    const [row] = group;
    if (row.email === canonical) continue;
    await q.query(`UPDATE users SET email = ${param(q, 1)} WHERE id = ${param(q, 2)}`, [canonical, row.id]);
    report.rewritten += 1;
  }
  for (const { canonical, userIds } of report.collisions) {
    logger.warn(
      `Accounts ${userIds.join(', ')} have addresses that are one mailbox (${canonical}); they were left as they were. ` +
        'Only an account stored as that canonical form can sign in with a password: decide which account keeps the address, ' +
        'and give the others another address or delete them (docs/configuration-and-deployment.md, "Addresses in one form").',
    );
  }
  for (const { userId, problem } of report.refused) {
    logger.warn(`Account ${userId} has an address that is no longer accepted (${problem}); it was left as it was and cannot sign in with a password until its address is corrected.`);
  }
  if (report.rewritten > 0) logger.log(`${report.rewritten} account address(es) rewritten to their canonical form.`);
  return report;
}

async function canonicalisePending(q: QueryRunner): Promise<void> {
  const rows: Array<{ id: number | string; email: string }> = await q.query('SELECT id, email FROM pending_registrations ORDER BY id');
  const taken = new Set(rows.map((row) => row.email));
  let dropped = 0;
  for (const row of rows) {
    const canonical = canonicalEmail(row.email);
    if (canonical.ok && canonical.email === row.email) continue;
    if (canonical.ok && !taken.has(canonical.email)) {
      await q.query(`UPDATE pending_registrations SET email = ${param(q, 1)} WHERE id = ${param(q, 2)}`, [canonical.email, row.id]);
      taken.delete(row.email);
      taken.add(canonical.email);
      continue;
    }
    await q.query(`DELETE FROM pending_registrations WHERE id = ${param(q, 1)}`, [row.id]);
    taken.delete(row.email);
    dropped += 1;
  }
  if (dropped > 0) logger.warn(`${dropped} pending sign-up(s) deleted: their address has no canonical form or another pending sign-up has it; their links no longer work.`);
}

async function canonicaliseNewEmails(q: QueryRunner): Promise<void> {
  const rows: Array<{ id: number | string; new_email: string }> = await q.query('SELECT id, new_email FROM account_mail_tokens WHERE new_email IS NOT NULL');
  let dropped = 0;
  for (const row of rows) {
    const canonical = canonicalEmail(row.new_email);
    if (canonical.ok && canonical.email === row.new_email) continue;
    if (canonical.ok) {
      await q.query(`UPDATE account_mail_tokens SET new_email = ${param(q, 1)} WHERE id = ${param(q, 2)}`, [canonical.email, row.id]);
    } else {
      await q.query(`DELETE FROM account_mail_tokens WHERE id = ${param(q, 1)}`, [row.id]);
      dropped += 1;
    }
  }
  if (dropped > 0) logger.warn(`${dropped} change-of-address link(s) deleted: the new address has no canonical form.`);
}

import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { inTransaction } from '../../src/database/transaction';
import { Mailer } from '../../src/mail/mailer.service';
import { MailSender, retryDelayMs } from '../../src/mail/mail-sender.service';
import { TestClock } from '../helpers/clock';
import { http } from '../helpers/http';
import { MailTestApp, startMailTestApp, TestSmtpServer } from '../helpers/mail';
import { scrape } from '../helpers/prometheus';
import { TestApp } from '../helpers/test-app';

describe('the mail outbox (docs/mail.md)', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let clock: TestClock;
  let mailApp: MailTestApp;

  beforeAll(async () => {
    mailApp = await startMailTestApp({ PLATFORM_NAME: 'Girişim Ağı', METRICS_PORT: '0' });
    ({ t, smtp, clock } = mailApp);
  });
  afterAll(() => mailApp?.close());

  async function write(to: string): Promise<void> {
    const mailer = t.app.get(Mailer);
    const mail = mailer.compose('account_exists', 'en', to, { signInUrl: mailer.link('/oauth/sign-in'), resetUrl: mailer.link('/account/forgot-password', { a: '1&b=2' }) });
    await inTransaction(t.app.get(DataSource), (tx) => mailer.enqueue(tx, mail, clock.now()));
  }

  const outbox = async () => (await http(t.url, '/health/ready')).body.info.mail;

  it('delivers a mail written in a transaction as text and HTML, from the platform, and empties the outbox', async () => {
    const before = await outbox();
    await write('ada@example.com');
    // A mail not yet tried does not show: forgot-password writes one only for an address with an account.
    expect(await outbox()).toEqual(before);
    expect(before).toEqual({ status: 'up', failing: 0, oldestAgeSeconds: 0 });
    expect((await scrape(t.app)).value('mail_outbox_pending')).toBe(1);
    expect(await t.app.get(MailSender).deliverDue()).toBe(1);
    const [mail] = smtp.to('ada@example.com');
    expect(mail.parsed.from?.value).toEqual([{ name: 'Girişim Ağı', address: 'no-reply@127.0.0.1' }]);
    expect(mail.subject).toBe('Girişim Ağı: you already have an account');
    // The text body keeps the link as it is; the HTML body escapes it.
    expect(mail.links).toEqual([`${t.url}/oauth/sign-in`, `${t.url}/account/forgot-password?a=1%26b%3D2`]);
    expect(mail.html).toContain('href="' + `${t.url}/oauth/sign-in` + '"');
    expect(mail.text).toMatch(/Best regards,\nGirişim Ağı\n$/);
    expect(await outbox()).toEqual({ status: 'up', failing: 0, oldestAgeSeconds: 0 });
  });

  it('keeps a mail while the mail server is down and delivers it once, after the backoff, when it is back', async () => {
    await smtp.stop();
    await write('grace@example.com');
    const sender = t.app.get(MailSender);
    expect(await sender.deliverDue()).toBe(0);
    clock.advance(retryDelayMs(1));
    expect(await sender.deliverDue()).toBe(0);
    expect(await outbox()).toEqual({ status: 'up', failing: 1, oldestAgeSeconds: 30 });
    const metrics = await scrape(t.app);
    expect(metrics.value('mail_outbox_pending')).toBe(1);
    expect(metrics.value('mail_outbox_oldest_age_seconds')).toBe(30);
    expect(metrics.value('mail_outbox_failing')).toBe(1);
    expect(metrics.value('mail_delivery_failures_total')).toBe(2);
    await smtp.start();
    // Not due before its backoff (twice as long after the second failure)…
    clock.advance(retryDelayMs(2) - 1);
    expect(await sender.deliverDue()).toBe(0);
    expect(smtp.to('grace@example.com')).toHaveLength(0);
    // …then it goes out exactly once.
    clock.advance(1);
    expect(await sender.deliverDue()).toBe(1);
    clock.advance(retryDelayMs(10));
    expect(await sender.deliverDue()).toBe(0);
    expect(smtp.to('grace@example.com')).toHaveLength(1);
    expect(await outbox()).toMatchObject({ failing: 0 });
    const after = await scrape(t.app);
    expect(after.value('mail_outbox_pending')).toBe(0);
    expect(after.value('mail_delivered_total')).toBe(2);
  });

  it('keeps the bodies encrypted at rest: a copy of the database holds no link of a waiting mail, and the recipient gets it whole', async () => {
    const mailer = t.app.get(Mailer);
    const link = mailer.link('/account/reset-password', { token: 'sp_mt_WaitingTokenOfAReset0123456789abcdefghij' });
    const mail = mailer.compose('account_exists', 'en', 'hedy@example.com', { signInUrl: link, resetUrl: link });
    await inTransaction(t.app.get(DataSource), (tx) => mailer.enqueue(tx, mail, clock.now()));
    const [row] = await t.app.get(DataSource).query(`SELECT recipient, subject, text_body, html_body FROM mail_outbox WHERE recipient = 'hedy@example.com'`);
    expect(`${row.text_body} ${row.html_body}`).not.toMatch(/sp_mt_|reset-password|Best regards/);
    expect(row.text_body).toMatch(/^v1\./);
    expect(await t.app.get(MailSender).deliverDue()).toBe(1);
    const [delivered] = smtp.to('hedy@example.com');
    expect(delivered.text).toBe(mail.text);
    expect(delivered.links).toContain(link);
  });

  it('drops a mail whose body does not open (written under another KEY_ENCRYPTION_SECRET, or moved to another row), counted and logged', async () => {
    const dataSource = t.app.get(DataSource);
    const mailer = t.app.get(Mailer);
    for (const to of ['ida@example.com', 'joan@example.com']) {
      await inTransaction(dataSource, (tx) => mailer.enqueue(tx, mailer.compose('account_exists', 'en', to, { signInUrl: mailer.link('/oauth/sign-in'), resetUrl: mailer.link('/account/forgot-password') }), clock.now()));
    }
    // Ida's bodies moved to Joan's row: bound to their recipient, they no longer open.
    await dataSource.query(`UPDATE mail_outbox SET recipient = 'joan@example.com' WHERE recipient = 'ida@example.com'`);
    await dataSource.query(`DELETE FROM mail_outbox WHERE recipient = 'joan@example.com' AND id = (SELECT MAX(id) FROM mail_outbox)`);
    const before = (await scrape(t.app)).value('mail_dropped_total', { reason: 'unreadable' }) ?? 0;
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      expect(await t.app.get(MailSender).deliverDue()).toBe(0);
      expect(warn.mock.calls.map((call) => String(call[0])).join('\n')).toMatch(/dropped \(unreadable\)/);
    } finally {
      warn.mockRestore();
    }
    expect(smtp.to('joan@example.com')).toEqual([]);
    expect((await scrape(t.app)).value('mail_dropped_total', { reason: 'unreadable' })).toBe(before + 1);
    expect(await dataSource.query(`SELECT id FROM mail_outbox WHERE recipient = 'joan@example.com'`)).toEqual([]);
  });

  it('lets nothing of a rolled-back transaction reach the outbox', async () => {
    const mailer = t.app.get(Mailer);
    const mail = mailer.compose('account_exists', 'tr', 'lin@example.com', { signInUrl: 'x', resetUrl: 'y' });
    await expect(
      inTransaction(t.app.get(DataSource), async (tx) => {
        await mailer.enqueue(tx, mail, clock.now());
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await outbox()).toMatchObject({ failing: 0 });
  });

  it('drops a mail the server refuses for good (550) at once, and one it keeps deferring (451) after MAIL_RETRY_HOURS, counted and logged without the address', async () => {
    const warnings: string[] = [];
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
    try {
      smtp.refuse.set('gone@example.com', 550);
      smtp.refuse.set('busy@example.com', 451);
      const sender = t.app.get(MailSender);
      const written = clock.now();
      await write('gone@example.com');
      await write('busy@example.com');
      await write('fine@example.com');
      expect(await sender.deliverDue()).toBe(1);
      // The 550 is gone from the outbox at once; the 451 waits, and is the one mail readiness reports.
      expect(await outbox()).toEqual({ status: 'up', failing: 1, oldestAgeSeconds: 0 });
      let metrics = await scrape(t.app);
      expect(metrics.value('mail_dropped_total', { reason: 'refused' })).toBe(1);
      expect(metrics.value('mail_dropped_total', { reason: 'expired' })).toBe(0);

      // Retried, as long as MAIL_RETRY_HOURS (72) has not passed since it was written…
      const deadline = written + 72 * 3600_000;
      clock.setTo(deadline - 1);
      expect(await sender.deliverDue()).toBe(0);
      expect(await outbox()).toMatchObject({ failing: 1 });
      // …its last try falls on the deadline, and failing then drops it.
      clock.setTo(deadline);
      expect(await sender.deliverDue()).toBe(0);
      expect(await outbox()).toEqual({ status: 'up', failing: 0, oldestAgeSeconds: 0 });
      metrics = await scrape(t.app);
      expect(metrics.value('mail_dropped_total', { reason: 'refused' })).toBe(1);
      expect(metrics.value('mail_dropped_total', { reason: 'expired' })).toBe(1);
      expect(metrics.matching('mail_dropped_total').map((sample) => sample.labels.reason).sort()).toEqual(['expired', 'refused', 'unreadable']);

      expect(smtp.to('fine@example.com')).toHaveLength(1);
      expect(smtp.to('gone@example.com')).toHaveLength(0);
      expect(smtp.to('busy@example.com')).toHaveLength(0);
      const drops = warnings.filter((line) => line.includes('dropped'));
      expect(drops).toEqual([expect.stringMatching(/^mail \d+ dropped \(refused\) after 1 attempt\(s\): RCPT TO 550 /), expect.stringMatching(/^mail \d+ dropped \(expired\) after \d+ attempt\(s\): RCPT TO 451 /)]);
      expect(warnings.join('\n')).not.toContain('@');
    } finally {
      warn.mockRestore();
      smtp.refuse.clear();
    }
  });
});

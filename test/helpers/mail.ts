import { simpleParser, ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { MailSender } from '../../src/mail/mail-sender.service';
import { TestClock } from './clock';
import { freePort, startTestApp, TestApp } from './test-app';

/** One mail the test SMTP server accepted, parsed as a mail client reads it. */
export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link of the text body, in order. */
  links: string[];
  parsed: ParsedMail;
}

/**
 * A real SMTP server for the mail tests (docs/mail.md), on a free port of 127.0.0.1, that keeps every
 * mail it accepts. `stop` closes it (the app's mail server is then down: connections are refused) and
 * `start` opens it again on the same port. No STARTTLS: the test server has no certificate the app trusts.
 */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  /** Recipients the server refuses at `RCPT TO`, with the reply code it answers (550: no such mailbox; 451: try later). */
  readonly refuse = new Map<string, number>();
  private server?: SMTPServer;

  private constructor(readonly port: number) {}

  static async start(): Promise<TestSmtpServer> {
    const smtp = new TestSmtpServer(await freePort());
    await smtp.start();
    return smtp;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const code = this.refuse.get(address.address.toLowerCase());
        if (code === undefined) return callback();
        callback(Object.assign(new Error(code >= 500 ? 'No such user here' : 'Try again later'), { responseCode: code }));
      },
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            const text = parsed.text ?? '';
            this.received.push({
              to: (Array.isArray(parsed.to) ? parsed.to[0] : parsed.to)?.value[0]?.address ?? '',
              from: parsed.from?.text ?? '',
              subject: parsed.subject ?? '',
              text,
              html: typeof parsed.html === 'string' ? parsed.html : '',
              links: [...text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]),
              parsed,
            });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The mails sent to `address` so far. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to === address.toLowerCase());
  }
}

/** An app whose mail goes to a test SMTP server of its own, on the suite's clock. */
export interface MailTestApp {
  t: TestApp;
  smtp: TestSmtpServer;
  clock: TestClock;
  /** Delivers what is due now and returns every mail sent to `address` so far. */
  mailsTo(address: string): Promise<ReceivedMail[]>;
  /** Restores the clock, closes the app, then the SMTP server. */
  close(): Promise<void>;
}

/**
 * The set-up of the mail suites (docs/mail.md): a test SMTP server, the app with `SMTP_URL` pointing
 * at it (and `env`), the app's clock taken over, and the sender's loop stopped, so that a test delivers
 * the outbox when it reads it (`mailsTo`, or `MailSender.deliverDue` at the time it sets).
 */
export async function startMailTestApp(env: Record<string, string> = {}): Promise<MailTestApp> {
  const smtp = await TestSmtpServer.start();
  const t = await startTestApp({ SMTP_URL: smtp.url, ...env });
  const clock = new TestClock(t.app);
  const sender = t.app.get(MailSender);
  sender.stopLoop();
  return {
    t,
    smtp,
    clock,
    async mailsTo(address) {
      await sender.deliverDue();
      return smtp.to(address);
    },
    async close() {
      clock.restore();
      await t.close();
      await smtp.stop();
    },
  };
}

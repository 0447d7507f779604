import { createTransport, Transporter } from 'nodemailer';
import type { ClaimedMail } from './outbox.repository';

/** Hands one mail to the mail server, or throws why it could not. */
export interface MailTransport {
  send(mail: ClaimedMail, from: string): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer (docs/mail.md): `smtp://` upgrades with STARTTLS whenever the server offers
 * it, `smtps://` speaks TLS from the first byte; credentials come from the URL. Time-outs are short, so
 * a mail server that hangs costs one attempt and a retry, not a stuck sender.
 */
export function smtpTransport(smtpUrl: string): MailTransport {
  const transporter: Transporter = createTransport(smtpUrl, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as never);
  return {
    send: async (mail, from) => {
      await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP_URL outside production (docs/mail.md): each mail is written to standard output, links
 * included, so that a newcomer running `npm start` alone can follow them. Written directly, not through
 * the logger, whose redaction would mask the very token the link carries; never used in production.
 */
export function consoleTransport(write: (text: string) => void = (text) => process.stdout.write(text)): MailTransport {
  return {
    send: async (mail, from) => {
      write(`\n----- mail (SMTP_URL is not set: printed, not sent) -----\nFrom: ${from}\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n----- end of mail -----\n`);
    },
    close: () => undefined,
  };
}

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

/** What a failed attempt says: whether the mail server refused this mail for good, and a line for the log. */
export interface DeliveryFailure {
  /** A 5xx answer to the recipient or the message (RFC 5321 §4.2.1): the same mail would be refused again. */
  permanent: boolean;
  /** The command and the server's answer, every address in it masked: the log never names who a mail was for. */
  description: string;
}

/**
 * Reads a failed attempt (docs/mail.md, "When a mail cannot arrive"). Only a 5xx answer to `RCPT TO` or
 * `DATA` is this mail's refusal; a 5xx to the login, the greeting or `MAIL FROM` refuses the service
 * itself (a wrong password, a sender it does not allow), every mail would fail alike, so those are retried
 * as a temporary failure while the operator sets it right.
 */
export function deliveryFailure(error: unknown): DeliveryFailure {
  const { responseCode, command, message } = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as {
    responseCode?: unknown;
    command?: unknown;
    message?: unknown;
  };
  const code = typeof responseCode === 'number' ? responseCode : undefined;
  const step = typeof command === 'string' ? command : undefined;
  const permanent = code !== undefined && code >= 500 && code <= 599 && (step === 'RCPT TO' || step === 'DATA');
  const text = maskAddresses(typeof message === 'string' ? message : String(error)).slice(0, 300);
  return { permanent, description: [step, code, text].filter((part) => part !== undefined).join(' ') };
}

/** Every word with an `@` in it, so neither a recipient nor a sender reaches the log. */
export function maskAddresses(text: string): string {
  return text.replace(/<?[^\s<>()@]*@[^\s<>()]*>?/g, '<address>');
}

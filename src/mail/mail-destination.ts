/**
 * Where this start's mail goes, for the start-up banner (README.md, Quick start): the console without
 * SMTP_URL (outside production), else the SMTP server's scheme, host and port, never its user or password.
 */
export function mailDestination(mail: { smtpUrl?: string; toConsole: boolean }): string {
  if (mail.toConsole) return 'printed on this console, links included (set SMTP_URL to send it)';
  if (mail.smtpUrl === undefined) return 'off (no SMTP_URL)';
  const url = new URL(mail.smtpUrl);
  return `sent through ${url.protocol}//${url.host}`;
}

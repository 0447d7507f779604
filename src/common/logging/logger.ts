import pino, { Logger } from 'pino';

/**
 * Anything that could carry a secret is removed before a line is written (CONTRACT §4): credentials in
 * headers, and OAuth parameters wherever they appear.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.client_secret',
  '*.code',
  '*.code_verifier',
  '*.refresh_token',
  '*.access_token',
  '*.token',
];

const SENSITIVE_QUERY = /([?&](?:code|code_verifier|client_secret|refresh_token|access_token|token|password|state)=)[^&#]*/gi;

/** A URL fit for a log line: query values that could be secrets are masked. */
export function redactUrl(url: string): string {
  return url.replace(SENSITIVE_QUERY, '$1[REDACTED]');
}

const loggers = new Map<string, Logger>();

function logger(level: string, redacting: boolean): Logger {
  const key = `${level}:${redacting}`;
  let found = loggers.get(key);
  if (!found) {
    found = pino({
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      ...(redacting ? { redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' } } : {}),
      formatters: { level: (label) => ({ level: label }) },
    });
    loggers.set(key, found);
  }
  return found;
}

export function rootLogger(level: string): Logger {
  return logger(level, true);
}

/**
 * The one-line-per-request access log. Its lines have fixed fields (request id, method, the URL after
 * redactUrl, status, duration, client IP) and never a header or a body, so the redaction pass that the
 * root logger runs on every line, a tenth of the cost of logging one, is left out here.
 */
export function accessLogger(level: string): Logger {
  return logger(level, false);
}

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

export function rootLogger(level: string): Logger {
  let logger = loggers.get(level);
  if (!logger) {
    logger = pino({
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      formatters: { level: (label) => ({ level: label }) },
    });
    loggers.set(level, logger);
  }
  return logger;
}

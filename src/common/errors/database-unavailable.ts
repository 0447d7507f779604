const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL class 08 (connection exception) and 57P0x (operator intervention: shutdown, crash).
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  // SQLite: the file is locked by a writer for longer than the busy timeout.
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
]);

const CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection is not established',
  'The database connection is not open',
  // pg's query_timeout: the server did not answer in time (see data-source-options.ts).
  'Query read timeout',
];

/** True when an error means "the database cannot be reached right now", answered 503, not 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && CONNECTION_CODES.has(candidate.code)) return true;
    if (typeof candidate.message === 'string' && CONNECTION_MESSAGES.some((m) => (candidate.message as string).includes(m))) {
      return true;
    }
    current = candidate.driverError ?? candidate.cause;
  }
  return false;
}

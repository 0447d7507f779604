import pino, { DestinationStream, Logger } from 'pino';
import pretty from 'pino-pretty';
import { SECRET_PREFIX } from '../crypto/secrets';

/**
 * Request parameters whose value is a secret, a credential, or something an attacker could replay or
 * use to tell who a user is (SECURITY.md "Secrets in logs"): never written to a log line.
 */
export const SENSITIVE_PARAMETERS: ReadonlySet<string> = new Set([
  // RFC 6749, RFC 7636, OIDC Core: codes, tokens and what binds them.
  'code',
  'code_verifier',
  'state',
  'nonce',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'assertion',
  'subject_token',
  'actor_token',
  // OIDC Core §3.1.2.1 and RP-Initiated Logout 1.0 §2: who the user is.
  'login_hint',
  'id_token_hint',
  'logout_hint',
  // RFC 8628 device codes, RFC 9126 pushed requests, RFC 9101 request objects.
  'device_code',
  'user_code',
  'request_uri',
  'request',
  // Client and user credentials, and the pages' own form secrets.
  'client_secret',
  'client_assertion',
  'password',
  'csrf_token',
  'transaction',
  // API keys sent in the query string: the API refuses them there (README, Authentication), but they
  // are still keys.
  'api_key',
  'apikey',
  'api-key',
  'x-api-key',
]);

/**
 * Values that are secrets by their shape, whatever the parameter that carries them (SECURITY.md "Secrets
 * in logs"): an RFC 8628 user code (`XXXX-XXXX` from BCDFGHJKLMNPQRSTVWXZ, any case, hyphen or not), the
 * platform's own secrets by their prefix, and a JWT (an ID token, a request object).
 */
const SECRET_SHAPES: readonly RegExp[] = [
  /(?<![A-Za-z0-9])[BCDFGHJKLMNPQRSTVWXZ]{4}(?:-|%2D|%252D)?[BCDFGHJKLMNPQRSTVWXZ]{4}(?![A-Za-z0-9])/gi,
  // Every prefix of SECRET_PREFIX (a kind added there is masked here too), and any `sp_…_token_`.
  new RegExp(`sp_(?:${Object.values(SECRET_PREFIX).map((prefix) => prefix.slice(3, -1)).join('|')}|[a-z]+_token)_[A-Za-z0-9_-]+`, 'g'),
  /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
];

/**
 * Anything that could carry a secret is removed before a line is written (SECURITY.md "Secrets in
 * logs"): credentials in headers, and OAuth parameters wherever an object holds them (a parsed form).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...[...SENSITIVE_PARAMETERS].map((name) => `*.${name}`),
];

const CENSOR = '[REDACTED]';

/** The parameter name as the server reads it: `+` is a space, percent-escapes decoded, case ignored. */
function isSensitiveName(raw: string): boolean {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape: compared as sent.
  }
  return SENSITIVE_PARAMETERS.has(name.trim().toLowerCase());
}

const SHAPE_TESTS = SECRET_SHAPES.map((shape) => new RegExp(shape.source, shape.flags.replace('g', '')));

function maskShapes(text: string): string {
  let masked = text;
  for (const shape of SECRET_SHAPES) masked = masked.replace(shape, CENSOR);
  return masked;
}

/** Percent-escapes decoded where they are well formed; a malformed one is kept as sent. */
function decodeLeniently(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** How many URLs may be nested in one another before a value is masked whole rather than looked into. */
const MAX_NESTING = 6;

/**
 * A parameter's value fit for a log line. A value may itself be a URL or a query (`return_to`,
 * `redirect_uri`, `next`…), plainly or percent-encoded once or more: it is masked inside, level by level,
 * and re-encoded as it came, so that `return_to=%2Fdevice%2Fconsent%3Fuser_code%3DRXLJ-LMCF` keeps its
 * path and loses its code.
 */
function redactValue(value: string, depth: number): string {
  const shaped = maskShapes(value);
  if (depth > MAX_NESTING) return /[%=?#]/.test(shaped) ? CENSOR : shaped;
  const structured = /[?#=]/.test(shaped) ? redactUrlAt(shaped, depth + 1) : shaped;
  const plus = structured.replace(/\+/g, ' ');
  const decoded = decodeLeniently(plus);
  if (decoded === plus) return structured;
  const inner = redactValue(decoded, depth + 1);
  if (inner === decoded) return structured;
  return encodeURIComponent(inner).replace(/%5BREDACTED%5D/g, CENSOR);
}

/**
 * Whether a secret could still be read out of a part of a query after masking, by decoding it any number
 * of times: the last guard, for spellings the structural pass does not foresee (a pair hidden in a name).
 */
function stillLeaks(part: string): boolean {
  let text = part;
  for (let level = 0; level <= MAX_NESTING; level++) {
    if (SHAPE_TESTS.some((shape) => shape.test(text))) return true;
    for (const match of text.matchAll(PAIR_IN_TEXT)) {
      const value = match[3];
      if (value !== '' && !value.startsWith(CENSOR) && isSensitiveName(match[2])) return true;
    }
    const next = decodeLeniently(text.replace(/\+/g, ' '));
    if (next === text) return false;
    text = next;
  }
  return true;
}

function redactQueryAt(query: string, depth: number): string {
  return query
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) return stillLeaks(part) ? CENSOR : part;
      const name = part.slice(0, eq);
      if (isSensitiveName(name)) return `${name}=${CENSOR}`;
      const redacted = `${name}=${redactValue(part.slice(eq + 1), depth)}`;
      return stillLeaks(redacted) ? `${stillLeaks(name) ? CENSOR : name}=${CENSOR}` : redacted;
    })
    .join('&');
}

function redactUrlAt(url: string, depth: number): string {
  const query = url.indexOf('?');
  const fragment = url.indexOf('#');
  const start = query < 0 ? fragment : fragment < 0 ? query : Math.min(query, fragment);
  if (start < 0) return url.includes('=') ? redactQueryAt(url, depth) : url;
  return (
    maskShapes(url.slice(0, start + 1)) +
    url
      .slice(start + 1)
      .split('#')
      .map((part) => redactQueryAt(part, depth))
      .join('#')
  );
}

/**
 * A query string (or form body) fit for a log line: the value of every sensitive parameter is masked,
 * also when its name is percent-encoded (`login%5Fhint`) or in another case, and each time it is
 * repeated; a value shaped as a secret is masked whatever its name, and a value that is a URL is masked
 * inside, however deep and however many times encoded.
 */
export function redactQuery(query: string): string {
  return redactQueryAt(query, 0);
}

/** A URL fit for a log line: its path's secret-shaped values and its query (and fragment) masked. */
export function redactUrl(url: string): string {
  if (!/[?#%]/.test(url)) return maskShapes(url);
  return redactUrlAt(url, 0);
}

/** `name=value` pairs inside free text (an error message, a stack, an event detail). */
const PAIR_IN_TEXT = /([?&#;\s"'(]|^)([^=&#?\s"'()]+)=([^&#\s"')]*)/g;

/** Free text fit for a log line: every `name=value` of a sensitive parameter in it is masked. */
export function redactText(text: string): string {
  if (!text.includes('=')) return maskShapes(text);
  return maskShapes(
    text.replace(PAIR_IN_TEXT, (whole, before: string, name: string, value: string) => {
      if (isSensitiveName(name)) return `${before}${name}=${CENSOR}`;
      const redacted = `${name}=${redactValue(value, 1)}`;
      return `${before}${stillLeaks(redacted) ? `${name}=${CENSOR}` : redacted}`;
    }),
  );
}

/** Every string of a logged object (plain objects and arrays, a few levels deep) through redactText. */
function redactDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return serializeError(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, depth + 1));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = redactDeep(item, depth + 1);
  return copy;
}

/**
 * An error as a line shows it: its type, its code (`errorCode`: a driver's, such as PostgreSQL's `57014`), its message
 * and stack through redactText, and its cause the same way; nothing else. A driver's error also carries the
 * statement and its parameters (TypeORM's `QueryFailedError`: `query`, `parameters`, `driverError`), which
 * may hold an address or a mail's text with its link: never written (SECURITY.md "Secrets in logs").
 */
export function serializeError(error: unknown, depth = 0): unknown {
  // Already made into a line's object by the log formatter (redactDeep), or not an error at all.
  if (!(error instanceof Error)) return typeof error === 'object' ? error : redactText(String(error));
  const code = (error as { code?: unknown }).code;
  return {
    type: error.constructor?.name ?? 'Error',
    // As `errorCode`: a line's `code` is an OAuth code to the redaction paths, and masked.
    ...(typeof code === 'string' || typeof code === 'number' ? { errorCode: code } : {}),
    message: redactText(error.message),
    ...(error.stack ? { stack: redactText(error.stack) } : {}),
    ...(error.cause !== undefined && depth < 3 ? { cause: serializeError(error.cause, depth + 1) } : {}),
  };
}

const loggers = new Map<string, Logger>();

/**
 * How log lines are written: `json`, one object per line for machines (production, tests), or `pretty`,
 * lines for people (`npm start` in development; docs/configuration-and-deployment.md, Logs). Pretty lines
 * are formatted in the process itself, synchronously, so none is lost when the process exits.
 */
export type LogFormat = 'json' | 'pretty';

/** The format of a process: pretty only in development (NODE_ENV unset or `development`). */
export function logFormatFor(nodeEnv: string): LogFormat {
  return nodeEnv === 'development' ? 'pretty' : 'json';
}

/**
 * The root logger's lines (start, stop, errors: few) are written synchronously, so that what the process
 * prints itself (the demo banner) comes after them and none is lost at exit. The access log's, one per
 * request, go through pino's asynchronous destination: a line is copied into a buffer and written while
 * the event loop serves other requests, instead of a write system call per request. What is still
 * buffered is written by `flushLogs` (the shutdown in main.ts) and, for any other exit, by pino's own
 * exit handler, so no line is lost.
 */
function destination(format: LogFormat, synchronous: boolean): DestinationStream {
  if (format === 'json') {
    if (synchronous) return pino.destination({ dest: 1, sync: true });
    const stream = pino.destination({ dest: 1, sync: false });
    asynchronous.add(stream);
    return stream;
  }
  return pretty({ sync: true, colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true });
}

const asynchronous = new Set<{ flushSync(): void }>();

/** Writes every buffered log line now: called once the last request has been answered, before the process exits. */
export function flushLogs(): void {
  for (const stream of asynchronous) {
    try {
      stream.flushSync();
    } catch {
      // Nothing was buffered, or the stream is not open yet (sonic-boom throws then): nothing to write.
    }
  }
}

function logger(level: string, redacting: boolean, format: LogFormat): Logger {
  const key = `${level}:${redacting}:${format}`;
  let found = loggers.get(key);
  if (!found) {
    const options: pino.LoggerOptions = {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      ...(redacting
        ? {
            redact: { paths: REDACTED_PATHS, censor: CENSOR },
            // An error's message and stack may quote a URL or a form (a driver error, a parser's); the
            // other fields of a line, and its message, may hold any text a request brought in.
            serializers: { err: serializeError },
            hooks: {
              logMethod(args: unknown[], method: (...a: unknown[]) => void) {
                method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)));
              },
            },
          }
        : {}),
      formatters: {
        level: (label) => ({ level: label }),
        ...(redacting ? { log: (object: Record<string, unknown>) => redactDeep(object) as Record<string, unknown> } : {}),
      },
    };
    found = pino(options, destination(format, redacting));
    loggers.set(key, found);
  }
  return found;
}

export function rootLogger(level: string, format: LogFormat = 'json'): Logger {
  return logger(level, true, format);
}

/**
 * The one-line-per-request access log. Its lines have fixed fields (request id, method, the URL after
 * redactUrl, status, duration, client IP) and never a header or a body, so the redaction pass that the
 * root logger runs on every line, a tenth of the cost of logging one, is left out here.
 */
export function accessLogger(level: string, format: LogFormat = 'json'): Logger {
  return logger(level, false, format);
}

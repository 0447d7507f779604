import { randomBytes } from 'node:crypto';
import { registerAs } from '@nestjs/config';
import { dirname, join } from 'node:path';
import { keptSecrets } from './development-secrets';
import { bool, ConfigError, Env, int, oneOf, optionalStr, origins, str, url } from './env-parsers';

/**
 * Every environment variable the service reads, validated in one place. `.env.example` lists the same
 * variables with the same defaults; nothing else in the code reads `process.env`.
 */
export function parseEnvironment(env: Env) {
  const nodeEnv = oneOf(env, 'NODE_ENV', 'development', ['development', 'production', 'test'] as const);
  const production = nodeEnv === 'production';
  const port = int(env, 'PORT', 3000, 0, 65535);
  // Unset, the issuer is this machine on the port it serves (PORT=0, any free port, has none to name).
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port || 3000}`, ['http:', 'https:'])!.replace(/\/+$/, '');

  // The platform's name on every page and mail, and what look-alike application names are checked against.
  const platformName = str(env, 'PLATFORM_NAME', 'Startup Platform').trim();
  if (platformName.length < 1 || platformName.length > 100 || /[\p{Cc}\p{Cf}]/u.test(platformName)) {
    throw new ConfigError('PLATFORM_NAME must be 1 to 100 characters with no control or format characters');
  }

  const databaseUrl = url(env, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:']);
  const sessionSecret = optionalStr(env, 'SESSION_SECRET');
  if (sessionSecret === undefined && production) {
    throw new ConfigError('SESSION_SECRET is required when NODE_ENV=production (at least 32 characters)');
  }
  if (sessionSecret !== undefined && sessionSecret.length < 32) {
    throw new ConfigError('SESSION_SECRET must be at least 32 characters long');
  }
  const keyEncryptionSecret = optionalStr(env, 'KEY_ENCRYPTION_SECRET');
  if (keyEncryptionSecret === undefined && production) {
    throw new ConfigError('KEY_ENCRYPTION_SECRET is required when NODE_ENV=production (at least 32 characters)');
  }
  if (keyEncryptionSecret !== undefined && keyEncryptionSecret.length < 32) {
    throw new ConfigError('KEY_ENCRYPTION_SECRET must be at least 32 characters long');
  }

  // Outside production, where the secrets that are not set are kept between starts (see withKeptSecrets).
  const sqlitePath = str(env, 'SQLITE_PATH', 'data/platform.sqlite');
  const devSecretsRaw = str(env, 'DEV_SECRETS_FILE', join(dirname(sqlitePath), '.secrets.json'));
  const devSecretsFile = production || devSecretsRaw.toLowerCase() === 'off' ? undefined : devSecretsRaw;

  const trustProxyRaw = str(env, 'TRUST_PROXY', 'false');
  let trustProxy: boolean | number | string;
  if (/^\d+$/.test(trustProxyRaw)) trustProxy = Number(trustProxyRaw);
  else if (['true', 'false'].includes(trustProxyRaw.toLowerCase())) trustProxy = bool(env, 'TRUST_PROXY', false);
  else trustProxy = trustProxyRaw; // a comma-separated list of addresses or CIDR ranges

  // Unset: no metrics at all. 0 takes any free port (for tests); otherwise it must not be the public port.
  const metricsPort = optionalStr(env, 'METRICS_PORT') === undefined ? undefined : int(env, 'METRICS_PORT', 0, 0, 65535);
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    throw new ConfigError(`METRICS_PORT must differ from PORT (${port}): metrics are never served on the public port`);
  }

  // README.md, Configuration: mail over SMTP (docs/mail.md). Unset outside production, mails are printed to the console.
  const smtpUrl = url(env, 'SMTP_URL', undefined, ['smtp:', 'smtps:']);
  // The name quoted (RFC 5322 §3.2.4), so that a comma or a dot in PLATFORM_NAME stays part of it.
  const mailFrom = str(env, 'MAIL_FROM', `"${platformName.replace(/["\\]/g, '\\$&')}" <no-reply@${new URL(publicUrl).hostname}>`);
  if (!/^(?:[^<>@\p{Cc}]*<[^<>@\s\p{Cc}]+@[^<>@\s\p{Cc}]+>|[^<>@\s\p{Cc}]+@[^<>@\s\p{Cc}]+)$/u.test(mailFrom)) {
    throw new ConfigError(`MAIL_FROM must be an address or "Name <address>", got "${mailFrom}"`);
  }

  // docs/integrate-with-oauth.md, "Clients identified by a URL": a development machine's own client
  // documents on loopback. Never in production, where it would let anyone make the server call itself.
  const clientMetadataAllowLoopback = bool(env, 'CLIENT_METADATA_ALLOW_LOOPBACK', false);
  if (clientMetadataAllowLoopback && production) {
    throw new ConfigError(
      'CLIENT_METADATA_ALLOW_LOOPBACK=true is for development only and is refused when NODE_ENV=production: it would let any client_id URL make the server fetch from its own loopback interface',
    );
  }

  return {
    app: {
      nodeEnv,
      production,
      port,
      host: str(env, 'HOST', '0.0.0.0'),
      publicUrl,
      platformName,
      secureCookies: publicUrl.startsWith('https://'),
      trustProxy,
      bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 64 * 1024, 1024, 10 * 1024 * 1024),
      logLevel: oneOf(env, 'LOG_LEVEL', production ? 'info' : 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
      corsOrigins: str(env, 'CORS_ORIGINS', '*'),
      /** Browser origins /mcp answers besides its own and loopback ones (docs/agents.md, "Browser-based agents"). */
      mcpAllowedOrigins: origins(env, 'MCP_ALLOWED_ORIGINS'),
      shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 500, 0, 120_000),
      shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
      seedDemoData: bool(env, 'SEED_DEMO_DATA', !production),
      /** Outside production: the file that keeps the secrets not set (undefined: production, or DEV_SECRETS_FILE=off). */
      devSecretsFile,
    },
    database: {
      type: databaseUrl ? ('postgres' as const) : ('sqlite' as const),
      url: databaseUrl,
      schema: optionalStr(env, 'DATABASE_SCHEMA'),
      sqlitePath,
      poolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 200),
    },
    auth: {
      sessionSecret: sessionSecret ?? randomBytes(32).toString('base64url'),
      sessionSecretGenerated: sessionSecret === undefined,
      /** The generated secret is kept in app.devSecretsFile and lasts across starts (withKeptSecrets). */
      sessionSecretKept: false,
      sessionTtlSeconds: int(env, 'SESSION_TTL', 8 * 3600, 60, 30 * 24 * 3600),
      accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL', 3600, 60, 24 * 3600),
      refreshTokenTtlSeconds: int(env, 'REFRESH_TOKEN_TTL', 30 * 24 * 3600, 300, 365 * 24 * 3600),
      refreshTokenGracePeriodSeconds: int(env, 'REFRESH_TOKEN_GRACE_PERIOD', 0, 0, 300),
      authCodeTtlSeconds: int(env, 'AUTH_CODE_TTL', 60, 10, 600),
      // RFC 9126 §2.2: a pushed request_uri lives briefly ("between 5 and 600 seconds"); 60 s by default.
      parTtlSeconds: int(env, 'PAR_TTL', 60, 5, 600),
      // RFC 8628 §3.2 `expires_in` of a device code: long enough to find a browser and sign in.
      deviceCodeTtlSeconds: int(env, 'DEVICE_CODE_TTL', 600, 60, 1800),
      // Wrong user codes per SIGN_IN_WINDOW from all addresses together (SECURITY.md, "Guessing user codes").
      userCodeGuessBudget: int(env, 'USER_CODE_GUESS_BUDGET', 100, 1, 10_000_000),
      signInMaxFailures: int(env, 'SIGN_IN_MAX_FAILURES', 5, 1, 1000),
      // Failed sign-ins per IP (an IPv6 address by its /64) in the same window: sized for many people
      // behind one address (an office, a carrier's NAT), so a few who mistype lock nobody else out.
      signInMaxFailuresPerIp: int(env, 'SIGN_IN_MAX_FAILURES_PER_IP', 100, 1, 1_000_000),
      signInWindowSeconds: int(env, 'SIGN_IN_WINDOW', 900, 10, 86_400),
      // SECURITY.md, "A borrowed session adding a way in": how recent a proof a change of how one signs in needs.
      reauthMaxAgeSeconds: int(env, 'REAUTH_MAX_AGE', 300, 10, 86_400),
      purgeIntervalSeconds: int(env, 'PURGE_INTERVAL', 3600, 0, 7 * 86_400),
      // docs/integrate-with-oauth.md, "Register a client dynamically" (RFC 7591): who may register at
      // POST /oauth/register, and how many registrations one IP (an IPv6 address by its /64) may make an hour.
      dynamicRegistration: oneOf(env, 'DYNAMIC_REGISTRATION', 'open', ['open', 'closed'] as const),
      registrationMaxPerHour: int(env, 'REGISTRATION_MAX_PER_HOUR', 20, 1, 1_000_000),
      tokenCacheTtlMs: int(env, 'TOKEN_CACHE_TTL_MS', 0, 0, 60_000),
      /** Client ID Metadata Documents may be fetched from `http://localhost:PORT/…` and `http://127.0.0.1:PORT/…` (development only). */
      clientMetadataAllowLoopback,
      // SECURITY.md, "SSRF through client metadata": documents fetched an hour for the requests of one IP
      // (an IPv6 address by its /64); a document kept from a recent fetch costs nothing.
      clientMetadataFetchesPerHour: int(env, 'CLIENT_METADATA_FETCHES_PER_HOUR', 60, 1, 1_000_000),
    },
    metrics: {
      /** Where `GET /metrics` is served (docs/configuration-and-deployment.md, Metrics); undefined: metrics are off. */
      port: metricsPort,
      host: str(env, 'METRICS_HOST', '127.0.0.1'),
    },
    developer: {
      // README.md, Your account: what one user may hold in the developer portal (0: the portal creates none).
      maxClients: int(env, 'DEVELOPER_MAX_CLIENTS', 10, 0, 1000),
      maxApiKeys: int(env, 'DEVELOPER_MAX_API_KEYS', 10, 0, 1000),
    },
    oidc: {
      // Encrypts the ID-token signing keys stored in the database. Generated in development, like
      // SESSION_SECRET, and kept in DEV_SECRETS_FILE (withKeptSecrets); keys made under a generated secret
      // that this start cannot read (the file was deleted, or DEV_SECRETS_FILE=off) are replaced at start.
      keyEncryptionSecret: keyEncryptionSecret ?? randomBytes(32).toString('base64url'),
      keyEncryptionSecretGenerated: keyEncryptionSecret === undefined,
      keyEncryptionSecretKept: false,
      idTokenTtlSeconds: int(env, 'ID_TOKEN_TTL', 3600, 60, 24 * 3600),
    },
    mail: {
      smtpUrl,
      from: mailFrom,
      /** Mails are printed to the console instead of sent: no SMTP_URL, outside production. */
      toConsole: smtpUrl === undefined && !production,
      /** Whether the pages that send mail are on: off in production without SMTP_URL. */
      enabled: smtpUrl !== undefined || !production,
      signUp: oneOf(env, 'SIGN_UP', 'open', ['open', 'closed'] as const),
      emailTokenTtlSeconds: int(env, 'EMAIL_TOKEN_TTL', 86_400, 300, 30 * 86_400),
      passwordResetTtlSeconds: int(env, 'PASSWORD_RESET_TTL', 1800, 60, 86_400),
      maxPerHour: int(env, 'MAIL_MAX_PER_HOUR', 5, 1, 1000),
      /** A mail the server does not take is retried for this long after it was written, then dropped (docs/mail.md). */
      retryHours: int(env, 'MAIL_RETRY_HOURS', 72, 1, 30 * 24),
    },
    rateLimit: {
      anonymous: int(env, 'RATE_LIMIT_ANONYMOUS', 60, 1, 1_000_000),
      standard: int(env, 'RATE_LIMIT_STANDARD', 600, 1, 1_000_000),
      partner: int(env, 'RATE_LIMIT_PARTNER', 6000, 1, 1_000_000),
      client: int(env, 'RATE_LIMIT_CLIENT', 1200, 1, 1_000_000),
      redisUrl: url(env, 'REDIS_URL', undefined, ['redis:', 'rediss:']),
      redisKeyPrefix: str(env, 'REDIS_KEY_PREFIX', 'sp:'),
    },
  };
}

export type Configuration = ReturnType<typeof parseEnvironment>;

/**
 * Outside production, the secrets that are not set come from DEV_SECRETS_FILE (beside the SQLite file by
 * default), made on the first start: so a restarted development server keeps its signing keys and its
 * sign-in sessions (docs/configuration-and-deployment.md, Development secrets). Production requires both.
 */
export function withKeptSecrets(config: Configuration): Configuration {
  const file = config.app.devSecretsFile;
  if (file === undefined || (!config.auth.sessionSecretGenerated && !config.oidc.keyEncryptionSecretGenerated)) return config;
  const kept = keptSecrets(file);
  return {
    ...config,
    auth: config.auth.sessionSecretGenerated ? { ...config.auth, sessionSecret: kept.SESSION_SECRET, sessionSecretKept: true } : config.auth,
    oidc: config.oidc.keyEncryptionSecretGenerated ? { ...config.oidc, keyEncryptionSecret: kept.KEY_ENCRYPTION_SECRET, keyEncryptionSecretKept: true } : config.oidc,
  };
}

// One parse per process environment: the namespaces below share it, so a generated development secret
// is the same everywhere in one process.
let cached: { env: Env; snapshot: string; config: Configuration } | undefined;
export function configuration(env: Env = process.env): Configuration {
  const snapshot = JSON.stringify(env);
  if (!cached || cached.env !== env || cached.snapshot !== snapshot) {
    cached = { env, snapshot, config: withKeptSecrets(parseEnvironment(env)) };
  }
  return cached.config;
}

export const appConfig = registerAs('app', () => configuration().app);
export const databaseConfig = registerAs('database', () => configuration().database);
export const authConfig = registerAs('auth', () => configuration().auth);
export const oidcConfig = registerAs('oidc', () => configuration().oidc);
export const rateLimitConfig = registerAs('rateLimit', () => configuration().rateLimit);
export const developerConfig = registerAs('developer', () => configuration().developer);

export const metricsConfig = registerAs('metrics', () => configuration().metrics);
export const mailConfig = registerAs('mail', () => configuration().mail);

export const configNamespaces = [appConfig, databaseConfig, authConfig, oidcConfig, rateLimitConfig, metricsConfig, developerConfig, mailConfig];

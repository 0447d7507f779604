import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Pool as PgPool } from 'pg';
import { OAUTH_ERROR_CODES } from '../common/errors/oauth-error';
import { metricsConfig } from '../config/configuration';
import { DatabaseInfo } from '../database/database-info';
import { HttpSeries } from './http-series';

/** How a sign-in attempt ended (docs/configuration-and-deployment.md, Metrics): signed in, refused for its credentials, or refused unchecked while throttled. */
export type SignInOutcome = 'success' | 'invalid_credentials' | 'throttled';

/** The rate-limit tiers of docs/using-the-api.md. */
export type RateLimitTier = 'anonymous' | 'standard' | 'partner' | 'client';

/** Why the mail sender dropped a mail undelivered (docs/mail.md): refused for good by the mail server, not taken within MAIL_RETRY_HOURS, or its body cannot be opened. */
export type MailDropReason = 'refused' | 'expired' | 'unreadable';

const MAIL_DROP_REASONS: readonly MailDropReason[] = ['refused', 'expired', 'unreadable'];
const SIGN_IN_OUTCOMES: readonly SignInOutcome[] = ['success', 'invalid_credentials', 'throttled'];
const RATE_LIMIT_TIERS: readonly RateLimitTier[] = ['anonymous', 'standard', 'partner', 'client'];
const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials', 'device_code'] as const;
/** RFC 8628 §3.4's grant type, a URN, counted under its last part. */
const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
/** Methods a route label may carry; an unmatched request with any other method is counted as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The route label of a request no route matched (404, or 405 on a known path): one value, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The service's Prometheus series (docs/configuration-and-deployment.md, Metrics), in a registry of its own, so that several applications
 * in one process (the e2e suites) never share or collide. With METRICS_PORT unset every method is a
 * no-op and nothing is registered.
 *
 * No label holds anything a caller chose: routes are the registered templates (`/api/public/v1/startups/:id`,
 * never the URL), and every other label takes its value from a fixed list, so no token, key, email or URL
 * can reach a label and the number of series stays bounded.
 */
@Injectable()
export class MetricsService {
  /** The registry `GET /metrics` serves; undefined when metrics are off. */
  readonly registry?: Registry;
  private readonly series?: ReturnType<typeof createSeries>;
  private readonly http?: HttpSeries;

  constructor(@Inject(metricsConfig.KEY) config: ConfigType<typeof metricsConfig>, database: DatabaseInfo) {
    if (config.port === undefined) return;
    this.registry = new Registry();
    this.http = new HttpSeries(this.registry);
    this.series = createSeries(this.registry, database.postgresPool());
    collectDefaultMetrics({ register: this.registry });
  }

  get enabled(): boolean {
    return this.registry !== undefined;
  }

  /** One answered HTTP request: `route` is its template, undefined when no route matched. */
  request(route: string | undefined, method: string, status: number, seconds: number): void {
    this.http?.observe(route ?? UNMATCHED_ROUTE, route === undefined && !METHODS.has(method) ? 'other' : method, status, seconds);
  }

  /** A token endpoint answer: 200 counts an issuance by grant type, an error counts its `error` code. */
  tokenIssued(grantType: unknown): void {
    this.series?.tokensIssued.inc({ grant_type: oneOf(grantType === DEVICE_CODE_GRANT_TYPE ? 'device_code' : grantType, GRANT_TYPES) });
  }

  tokenError(error: unknown): void {
    this.series?.tokenErrors.inc({ error: oneOf(error, OAUTH_ERROR_CODES) });
  }

  signIn(outcome: SignInOutcome): void {
    this.series?.signIns.inc({ outcome });
  }

  rateLimited(tier: RateLimitTier): void {
    this.series?.rateLimited.inc({ tier });
  }

  /** A mail of the outbox handed to the mail server (docs/mail.md). */
  mailDelivered(): void {
    this.series?.mailsDelivered.inc();
  }

  /** A delivery attempt the mail server refused or could not take: the mail stays in the outbox. */
  mailFailed(): void {
    this.series?.mailFailures.inc();
  }

  /** A mail dropped from the outbox (docs/mail.md): refused for good by the mail server, or past MAIL_RETRY_HOURS. */
  mailDropped(reason: MailDropReason): void {
    this.series?.mailsDropped.inc({ reason: oneOf(reason, MAIL_DROP_REASONS) });
  }

  /** The outbox's gauges (pending, oldest, failing), read from the database when scraped. */
  watchOutbox(read: () => Promise<{ pending: number; oldestAgeSeconds: number; failing: number }>): void {
    if (!this.registry) return;
    const registers = [this.registry];
    // One read per scrape for the three gauges: the first gauge's collect reads, the others reuse it.
    let last: Promise<{ pending: number; oldestAgeSeconds: number; failing: number }> | undefined;
    const gauge = (name: string, help: string, pick: (stats: { pending: number; oldestAgeSeconds: number; failing: number }) => number, first: boolean) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          if (first || !last) last = read();
          this.set(pick(await last));
        },
      });
    gauge('mail_outbox_pending', 'Mails waiting in the outbox to be delivered.', (stats) => stats.pending, true);
    gauge('mail_outbox_oldest_age_seconds', 'Seconds the oldest mail in the outbox has waited (0 when none waits).', (stats) => stats.oldestAgeSeconds, false);
    gauge('mail_outbox_failing', 'Mails in the outbox whose last delivery attempt failed.', (stats) => stats.failing, false);
  }

  /** RFC 9700 §4.14.2: a retired refresh token came back and its whole family was revoked. */
  refreshFamilyRevokedForReuse(): void {
    this.series?.reuseRevocations.inc();
  }
}

function createSeries(registry: Registry, pool: PgPool | undefined) {
  const registers = [registry];
  const series = {
    tokensIssued: new Counter({
      name: 'oauth_tokens_issued_total',
      help: 'Successful token endpoint answers, by grant type.',
      labelNames: ['grant_type'] as const,
      registers,
    }),
    tokenErrors: new Counter({
      name: 'oauth_token_errors_total',
      help: 'Token endpoint error answers, by their RFC 6749 error code.',
      labelNames: ['error'] as const,
      registers,
    }),
    signIns: new Counter({
      name: 'sign_ins_total',
      help: 'Sign-in form submissions, by outcome.',
      labelNames: ['outcome'] as const,
      registers,
    }),
    rateLimited: new Counter({
      name: 'rate_limited_requests_total',
      help: 'Requests refused with 429 for going over their rate limit, by tier.',
      labelNames: ['tier'] as const,
      registers,
    }),
    mailsDelivered: new Counter({
      name: 'mail_delivered_total',
      help: 'Mails of the outbox handed to the mail server.',
      registers,
    }),
    mailFailures: new Counter({
      name: 'mail_delivery_failures_total',
      help: 'Mail delivery attempts that failed (the mail stays in the outbox and is retried).',
      registers,
    }),
    mailsDropped: new Counter({
      name: 'mail_dropped_total',
      help: 'Mails dropped from the outbox undelivered, by reason: refused (a permanent 5xx refusal) or expired (not taken within MAIL_RETRY_HOURS).',
      labelNames: ['reason'] as const,
      registers,
    }),
    reuseRevocations: new Counter({
      name: 'oauth_refresh_token_reuse_revocations_total',
      help: 'Refresh-token families revoked because a retired refresh token was presented again.',
      registers,
    }),
  };
  // Every known label value starts at 0, so rate() and alerts see the series before its first event.
  for (const grant_type of GRANT_TYPES) series.tokensIssued.inc({ grant_type }, 0);
  for (const error of OAUTH_ERROR_CODES) series.tokenErrors.inc({ error }, 0);
  for (const outcome of SIGN_IN_OUTCOMES) series.signIns.inc({ outcome }, 0);
  for (const tier of RATE_LIMIT_TIERS) series.rateLimited.inc({ tier }, 0);
  series.reuseRevocations.inc(0);
  series.mailsDelivered.inc(0);
  series.mailFailures.inc(0);
  if (pool) registerPoolGauges(registry, pool);
  return series;
}

/** The PostgreSQL connection pool, read when scraped. */
function registerPoolGauges(registry: Registry, pool: PgPool): void {
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge('db_pool_connections', 'PostgreSQL connections open in this instance\'s pool.', () => pool.totalCount);
  gauge('db_pool_idle_connections', 'PostgreSQL connections open and idle in the pool.', () => pool.idleCount);
  gauge('db_pool_waiting_requests', 'Queries waiting for a free PostgreSQL connection.', () => pool.waitingCount);
  gauge('db_pool_max_connections', 'The pool\'s size (DATABASE_POOL_SIZE).', () => pool.options.max ?? 0);
}

function oneOf<T extends string>(value: unknown, known: readonly T[]): T | 'other' {
  return typeof value === 'string' && (known as readonly string[]).includes(value) ? (value as T) : 'other';
}

import type { FastifyReply } from 'fastify';
import { AppError } from '../common/errors/app-error';
import { RateLimitResult } from './rate-limit.types';

/**
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds until the window ends), as the
 * IETF RateLimit header fields draft names them. Set on the reply as soon as the request is counted, so
 * they stay on whatever answer follows: the success, a 4xx of the handler or the 429 (docs/using-the-api.md).
 */
export function setRateLimitHeaders(reply: FastifyReply, result: RateLimitResult): void {
  reply.header('ratelimit-limit', String(result.limit));
  reply.header('ratelimit-remaining', String(result.remaining));
  reply.header('ratelimit-reset', String(result.resetSeconds));
}

/** The 429 for a request over its limit; `Retry-After` is the wait until the window ends (RFC 9110 §10.2.3). */
export function rateLimitedError(result: RateLimitResult): AppError {
  return rateLimitedFor(result.resetSeconds);
}

/** The 429 of a budget that says itself how long to wait: `Retry-After` in seconds (RFC 9110 §10.2.3). */
export function rateLimitedFor(retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', { headers: { 'retry-after': String(retryAfterSeconds) } });
}

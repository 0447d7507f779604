import { addressKey } from './address-key';

/** The outcome of counting one request against a limit. */
export interface RateLimitResult {
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the current window, never below 0. */
  remaining: number;
  /** Whole seconds until the window ends and the count starts again (at least 1). */
  resetSeconds: number;
  /** False when this request went over the limit: answer 429. */
  allowed: boolean;
}

/** Where counters live: one process's memory, or a Redis shared by every instance. */
export interface RateLimitStore {
  /** Counts `requests` hits (one request, or each message of a batch) on `key` and returns the count so far in its window and the ms left in it. */
  hit(key: string, windowMs: number, requests?: number): Promise<{ count: number; msLeft: number }>;
  close(): Promise<void>;
}

/** Every limit is counted per minute (docs/using-the-api.md). */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * The counter names. Each caller identity has its own counter, so an API key's budget never
 * shares a counter with the anonymous budget of the IP it is used from, and the OAuth endpoints
 * count against the same per-client counter as Bearer calls.
 */
export const RateLimitKeys = {
  /** No credentials (or credentials that failed): per client address (an IPv6 address by its /64). */
  anonymous: (ip: string) => `ip:${addressKey(ip)}`,
  /** A valid API key: per key. */
  apiKey: (apiKeyId: number) => `key:${apiKeyId}`,
  /** An OAuth client (its `oauth_clients.id`): Bearer calls and client-authenticated `/oauth/*` calls. */
  client: (clientId: number) => `client:${clientId}`,
};

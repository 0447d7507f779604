import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const REQUEST_ID = Symbol('requestId');

/**
 * The request's id (docs/using-the-api.md, Envelopes): a client-sent `X-Request-Id` of 1–128 safe characters is reused,
 * anything else is replaced by a new UUID. Memoised on the raw request so Fastify, the logger and the
 * error filter all see the same value.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const holder = raw as IncomingMessage & { [REQUEST_ID]?: string };
  let id = holder[REQUEST_ID];
  if (id === undefined) {
    const sent = raw.headers['x-request-id'];
    id = typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
    holder[REQUEST_ID] = id;
  }
  return id;
}

export function isSaneRequestId(value: string): boolean {
  return SANE_REQUEST_ID.test(value);
}

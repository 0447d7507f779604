import type { FastifyInstance, onSendHookHandler, RouteOptions } from 'fastify';
import { MetricsService } from './metrics.service';

/** The token endpoint, whose answers are also counted by grant type and by error (docs/configuration-and-deployment.md, Metrics). */
const TOKEN_ENDPOINT = '/oauth/token';

/**
 * Counts every answered request by route template, method and status, with its duration: one
 * `onResponse` hook, whose label values are resolved once per route, method and status (see
 * MetricsService.request). Call before the routes are registered (the token endpoint's hook is added as
 * its route is). With metrics off nothing is installed, so the requests pay nothing.
 */
export function installHttpMetrics(fastify: FastifyInstance, metrics: MetricsService): void {
  if (!metrics.enabled) return;

  fastify.addHook('onRoute', (route) => {
    if (route.url === TOKEN_ENDPOINT && methodsOf(route).includes('POST')) route.onSend = [...hooksOf(route.onSend), tokenOutcome(metrics)];
  });

  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.request(request.routeOptions.url, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * The token endpoint's answer as the client sees it, whichever layer wrote it (the grant, client
 * authentication, the rate limit, a body refused before the handler): 200 is a token issued for the
 * form's grant type; an error is counted by the `error` of its RFC 6749 §5.2 body.
 */
function tokenOutcome(metrics: MetricsService): onSendHookHandler {
  return (request, reply, payload, done) => {
    if (reply.statusCode === 200) metrics.tokenIssued((request.body as Record<string, unknown> | undefined)?.grant_type);
    else if (reply.statusCode >= 400) metrics.tokenError(errorCodeOf(payload));
    done(null, payload);
  };
}

function errorCodeOf(payload: unknown): unknown {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return undefined;
  try {
    return (JSON.parse(payload.toString()) as { error?: unknown }).error;
  } catch {
    return undefined;
  }
}

function methodsOf(route: RouteOptions): string[] {
  return Array.isArray(route.method) ? route.method : [route.method];
}

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

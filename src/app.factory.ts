import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import { Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PLATFORM_NAME_DECORATION } from './web/page';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { handleClientError, handleFrameworkError, hasFragmentInPath } from './common/http/client-error';
import { contentSecurityPolicyFor } from './common/http/content-security-policy';
import { lingerAfterAnswer } from './common/http/lingering-close';
import { errorFormatsOf } from './common/http/controller-routes';
import { requestIdOf } from './common/http/request-id';
import { RouteTable } from './common/http/route-table';
import { ShutdownState } from './common/http/shutdown-state';
import { accessLogger, logFormatFor, redactUrl } from './common/logging/logger';
import { setupOpenApi } from './common/openapi/swagger';
import { configuration } from './config/configuration';
import { installHttpMetrics } from './metrics/http-metrics';
import { MetricsService } from './metrics/metrics.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the service's first request hook (createApp): the request is counted in flight and has its id header. */
    started: boolean;
  }
}

/**
 * Builds the whole application, exactly as it runs in production. `main.ts` listens on it; the e2e
 * suites call it too, so they test the real pipeline.
 */
export async function createApp(options: { imports?: Type[] } = {}): Promise<NestFastifyApplication> {
  const config = configuration();
  // The application's route table (a provider of CommonModule), known once Nest has built the modules;
  // the two handlers below run only on requests, by which time it is set.
  // eslint-disable-next-line prefer-const
  let routes: RouteTable | undefined;
  const adapter = new FastifyAdapter({
    trustProxy: trustProxyOption(config.app.trustProxy),
    bodyLimit: config.app.bodyLimitBytes,
    genReqId: (req: IncomingMessage) => requestIdOf(req),
    requestIdHeader: false,
    logger: false,
    return503OnClosing: false,
    clientErrorHandler: (error, socket) => handleClientError(error, socket, routes),
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => handleFrameworkError(error, request, reply, routes),
  });

  const fastify = adapter.getInstance();
  // The platform's name on every page (PLATFORM_NAME; src/web/page.ts reads it when it sends a page).
  fastify.decorate(PLATFORM_NAME_DECORATION, config.app.platformName);

  // Tests may add modules (e.g. probe routes for the pipeline); production builds exactly AppModule.
  const root = options.imports?.length ? rootModuleWith(options.imports) : AppModule;
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, { bufferLogs: true, abortOnError: false });
  app.useLogger(app.get(Logger));
  // Routes are registered by app.init() below: the table sees every one of them, with its error format.
  const table = app.get(RouteTable);
  routes = table;
  fastify.addHook('onRoute', (route) => table.add(route.method, route.url));
  table.useErrorFormats(errorFormatsOf(app));
  const shutdown = app.get(ShutdownState);
  const accessLog = accessLogger(config.app.logLevel, logFormatFor(config.app.nodeEnv));
  installHttpMetrics(fastify, app.get(MetricsService));

  const hardening = hardeningHeaders(config.app.secureCookies);
  const documentHardening = documentOnly(hardening);
  const answerHardening = everyAnswer(hardening);
  // The hooks below run on every request, so they take Fastify's callback form: an async hook costs a
  // promise and a turn of the microtask queue each, for work that is synchronous.
  // Whether the hook below ran: Nest's own request hooks run before it, and two of them may answer
  // first (the CORS preflight, the 503 while closing).
  fastify.decorateRequest('started', false);
  fastify.addHook('onRequest', (request, reply, done) => {
    request.started = true;
    shutdown.requestStarted();
    reply.headers(answerHardening);
    reply.header('x-request-id', request.id);
    // By the route the request reached (`/%64ocs` is the reference too); by its path where none matched.
    reply.header('content-security-policy', contentSecurityPolicyFor(request.routeOptions.url ?? request.url));
    if (hasFragmentInPath(request.url)) {
      handleFrameworkError(new Error('A fragment in the request path'), request, reply, routes);
      return;
    }
    done();
  });
  // While draining, requests on connections accepted earlier are still served, and told not to come
  // back: any answer sent after SIGTERM closes its connection, also for a request that began before.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    // The headers that only a document (a page, the reference) acts on, left off the JSON answers. A
    // redirect keeps them: Chromium compares the opener policy at every hop of a navigation, and a hop
    // without it would cut a popup from its opener (the reference's OAuth popup returns through one).
    if (!isJson(reply.getHeader('content-type'))) reply.headers(documentHardening);
    // Answered before the hook above ran: its request id and the headers of every answer are added here.
    if (!request.started) {
      reply.headers(answerHardening);
      reply.header('x-request-id', request.id);
    }
    if (shutdown.isDraining) reply.header('connection', 'close');
    // Answered before the whole body was read (413 over BODY_LIMIT_BYTES): the client reads the answer
    // while it is still sending, and the connection closes once the rest is read or past a bound.
    if (!request.raw.complete) {
      reply.header('connection', 'close');
      lingerAfterAnswer(request.raw);
    }
    done(null, payload);
  });
  // Only a request counted as started is counted as finished: a preflight's end must not take another
  // request out of the count that SIGTERM waits on.
  fastify.addHook('onRequestAbort', (request, done) => {
    if (request.started) shutdown.requestFinished();
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    if (request.started) shutdown.requestFinished();
    accessLog.info(
      {
        requestId: request.id,
        method: request.method,
        url: redactUrl(request.url),
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
        ip: request.ip,
      },
      'request completed',
    );
    done();
  });

  await app.register(fastifyCookie as never);

  app.enableCors({
    origin: config.app.corsOrigins === '*' ? '*' : config.app.corsOrigins.split(',').map((o) => o.trim()),
    // An OPTIONS without the preflight's headers is answered as a preflight too (204 and what is allowed),
    // not with the plugin's plain-text 400, which no client could read as an error of this API.
    strictPreflight: false,
    // PUT and DELETE: a browser client manages its dynamic registration (RFC 7592) with them; no cookie is
    // ever sent cross-origin (credentials are not allowed), so no page's form is reachable this way.
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    // RFC 9449 §4.1: a browser application sends its proofs in the DPoP header, at the token, revocation,
    // PAR and device-authorization endpoints and with every call to the API and UserInfo.
    // MCP Streamable HTTP: a client sends the negotiated protocol revision with every request after
    // `initialize` (docs/agents.md), a browser-based agent too.
    allowedHeaders: ['Authorization', 'DPoP', 'X-Api-Key', 'Content-Type', 'Accept-Language', 'X-Request-Id', 'Mcp-Protocol-Version'],
    exposedHeaders: [
      'X-Request-Id',
      'Content-Language',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      'WWW-Authenticate',
      'Allow',
      // RFC 9449 §8: a server nonce is read by the client from this header and sent back in its proof.
      'DPoP-Nonce',
    ],
    maxAge: 600,
  });

  setupOpenApi(app, config.app.publicUrl);
  await app.init();
  return app;
}

/**
 * helmet's browser-hardening headers (framing denied, no sniffing, no referrer, HSTS behind https…),
 * computed once: they are the same on every response, and running helmet's middleware chain for each
 * request cost more than the rest of the response headers together. The Content-Security-Policy is set
 * per kind of response by the onRequest hook and the pages.
 */
function hardeningHeaders(https: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | string[]) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet({
    contentSecurityPolicy: false,
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    hsts: https ? { maxAge: 31536000, includeSubDomains: true } : false,
  })({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * The hardening headers a browser applies only to a document it renders: the opener and agent-cluster
 * isolation of a page, DNS prefetching, IE's download and XSS-filter switches, and the cross-domain
 * policy files of Flash and PDF readers. A JSON answer is never rendered, so it goes without them (six of
 * its 24 headers, written on every API call); every other answer (pages, redirects, files) has them. Every answer keeps `nosniff`, `X-Frame-Options`,
 * `Referrer-Policy`, `Cross-Origin-Resource-Policy`, HSTS behind https and its Content-Security-Policy.
 */
const DOCUMENT_ONLY = new Set(['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection']);

function documentOnly(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => DOCUMENT_ONLY.has(name)));
}

function everyAnswer(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !DOCUMENT_ONLY.has(name)));
}

/** A JSON answer (the API, the OAuth endpoints, discovery): never rendered as a document. */
function isJson(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.startsWith('application/json');
}

function rootModuleWith(imports: Type[]): Type {
  @Module({ imports: [AppModule, ...imports] })
  class RootModule {}
  return RootModule;
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes the function Fastify itself builds from a number
 * (trust the `hop` nearest proxies), as the adapter's option type no longer lists plain numbers.
 */
function trustProxyOption(value: boolean | number | string): boolean | string | ((address: string, hop: number) => boolean) {
  if (typeof value !== 'number') return value;
  return (_address, hop) => hop < value;
}

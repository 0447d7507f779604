import 'reflect-metadata';
import 'dotenv/config';
import { Server } from 'node:net';
import { ConfigError } from './config/env-parsers';
import { configuration } from './config/configuration';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = configuration();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  // Loaded after the configuration is known to be valid, so a bad variable never reaches Nest.
  const { createApp } = await import('./app.factory');
  const { ShutdownState } = await import('./common/http/shutdown-state');
  const { flushLogs, logFormatFor, rootLogger } = await import('./common/logging/logger');
  const { DemoDataService } = await import('./demo/demo-data.service');
  const log = rootLogger(config.app.logLevel, logFormatFor(config.app.nodeEnv));

  const app = await createApp();
  await app.listen({ port: config.app.port, host: config.app.host });
  log.info({ url: config.app.publicUrl, port: config.app.port, database: config.database.type }, 'listening');
  // After the start's log lines, so that a newcomer sees the demo account last (README.md, Quick start).
  const banner = app.get(DemoDataService, { strict: false }).takeBanner();
  if (banner !== undefined) process.stdout.write(banner);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'draining');
    const shutdown = app.get(ShutdownState);
    shutdown.begin();
    const timer = setTimeout(() => {
      log.error('shutdown timed out; exiting');
      flushLogs();
      process.exit(1);
    }, config.app.shutdownGraceMs + config.app.shutdownTimeoutMs);
    timer.unref();
    try {
      // Readiness already fails; keep accepting for a grace period so a load balancer can notice, and so
      // connections still waiting in the kernel's accept queue are taken rather than reset.
      await new Promise((resolve) => setTimeout(resolve, config.app.shutdownGraceMs));
      // Stop accepting new connections, but keep those already accepted: Node's http close() would drop
      // idle ones at once, including a connection whose request has not arrived yet.
      Server.prototype.close.call(app.getHttpServer());
      log.info('listener closed');
      await shutdown.whenIdle(250);
      // Then Fastify closes the remaining idle keep-alive connections and Nest closes the database.
      await app.close();
      // Every request has been answered: the access log's buffered lines are written before the exit.
      flushLogs();
      log.info('stopped');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      flushLogs();
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

bootstrap().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Startup failed: ${message}\n`);
  process.exit(1);
});

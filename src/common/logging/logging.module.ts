import { Module } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import { appConfig } from '../../config/configuration';
import { logFormatFor, rootLogger } from './logger';

/**
 * Structured JSON logs through nestjs-pino. The one-line-per-request access log is written by a Fastify
 * `onResponse` hook (see app.factory.ts) so that it also covers what Fastify answers before Nest runs
 * (404, 405, 413, 415), with the same request id.
 *
 * nestjs-pino's request middleware is not mounted: it built a child logger for every request (a
 * sixth of the CPU of a cheap request) only to bind the request to log lines that are rarely written.
 * Nest's own log lines go to the same root logger; those written about a request name its id themselves
 * (see AllExceptionsFilter).
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (config: ConfigType<typeof appConfig>) => ({
        pinoHttp: { logger: rootLogger(config.logLevel, logFormatFor(config.nodeEnv)), autoLogging: false },
        forRoutes: [],
      }),
    }),
  ],
})
export class LoggingModule {}

import { Module, RequestMethod } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import { appConfig } from '../../config/configuration';
import { requestIdOf } from '../http/request-id';
import { rootLogger } from './logger';

/**
 * Structured JSON logs through nestjs-pino. The one-line-per-request access log is written by a Fastify
 * `onResponse` hook (see app.factory.ts) so that it also covers what Fastify answers before Nest runs
 * (404, 405, 413, 415), with the same request id.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (config: ConfigType<typeof appConfig>) => ({
        pinoHttp: {
          logger: rootLogger(config.logLevel),
          autoLogging: false,
          quietReqLogger: true,
          genReqId: (req) => requestIdOf(req),
          customProps: (req) => ({ requestId: requestIdOf(req) }),
        },
        forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
      }),
    }),
  ],
})
export class LoggingModule {}

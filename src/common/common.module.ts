import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AllExceptionsFilter } from './errors/all-exceptions.filter';
import { RouteTable } from './http/route-table';
import { ShutdownState } from './http/shutdown-state';
import { createValidationPipe } from './validation/validation.pipe';

/**
 * The request pipeline, registered as `APP_*` providers so that any test importing AppModule runs
 * exactly what production runs. The success envelope is put on by the Fastify adapter of createApp
 * (common/envelope/enveloping-fastify-adapter.ts).
 */
@Global()
@Module({
  providers: [
    ShutdownState,
    RouteTable,
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
  ],
  exports: [ShutdownState, RouteTable],
})
export class CommonModule {}

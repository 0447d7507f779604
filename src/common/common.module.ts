import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { RouteTable } from './http/route-table';
import { ShutdownState } from './http/shutdown-state';
import { EnvelopeInterceptor } from './interceptors/envelope.interceptor';
import { createValidationPipe } from './validation/validation.pipe';

/**
 * The request pipeline, registered as `APP_*` providers so that any test importing AppModule runs
 * exactly what production runs: validation, the success envelope, the error formats. The access guards
 * are AuthModule's APP_GUARDs. The route table answers what no handler can (405, a path's error format).
 */
@Global()
@Module({
  providers: [
    ShutdownState,
    RouteTable,
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
  ],
  exports: [ShutdownState, RouteTable],
})
export class CommonModule {}

import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { EnvelopeInterceptor } from './envelope/envelope.interceptor';
import { AllExceptionsFilter } from './errors/all-exceptions.filter';
import { ShutdownState } from './http/shutdown-state';
import { createValidationPipe } from './validation/validation.pipe';

/**
 * The request pipeline, registered as `APP_*` providers so that any test importing AppModule runs
 * exactly what production runs.
 */
@Global()
@Module({
  providers: [
    ShutdownState,
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
  ],
  exports: [ShutdownState],
})
export class CommonModule {}

import { Injectable } from '@nestjs/common';

/**
 * The current time as a provider, so that rules bounded in time (the sign-in throttle's window, how
 * long a device cookie lasts) take it as an input: a test sets the clock instead of waiting.
 */
@Injectable()
export class Clock {
  /** Epoch milliseconds. */
  now(): number {
    return Date.now();
  }
}

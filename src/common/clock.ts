import { Global, Injectable, Module } from '@nestjs/common';

/**
 * The current time as a provider, so that rules bounded in time (the sign-in throttle's window, how
 * long a device cookie lasts, how long the access-token cache serves a grant, how old a sign-in is for
 * `max_age`) take it as an input: a test sets the clock instead of waiting (README.md, Tests).
 */
@Injectable()
export class Clock {
  /** Epoch milliseconds. */
  now(): number {
    return Date.now();
  }
}

/** An hour in the clock's milliseconds: the window of the hourly budgets (registrations, document fetches, mail). */
export const HOUR_MS = 3_600_000;

/** One Clock for the whole application (and the CLI), so that a test which sets it sets it everywhere. */
@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}

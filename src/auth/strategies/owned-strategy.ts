import type { Strategy } from 'passport';

/** The options an application's auth guard hands Passport: they name that application's strategy. */
export interface OwnedAuthenticateOptions {
  strategy?: Strategy;
}

/**
 * Passport keeps one strategy per name for the whole process: the one registered last. A process runs
 * one application, but tests start several at once (each on its own database), and each request must
 * be verified by the strategy of the application that received it. Passport runs a strategy on a
 * per-request copy of the registered one; when the guard named another (its own), the copy is made to
 * inherit from that one instead, so `validate()` runs with that application's services.
 */
export function verifiedBy(attempt: Strategy, options: OwnedAuthenticateOptions | undefined): void {
  const owner = options?.strategy;
  if (owner && owner !== attempt && Object.getPrototypeOf(attempt) !== owner) Object.setPrototypeOf(attempt, owner);
}

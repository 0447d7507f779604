import type { Strategy } from 'passport';

export type StrategyOutcome<U> =
  | { type: 'success'; user: U }
  | { type: 'fail'; challenge?: unknown; status?: number };

/**
 * Runs one Passport strategy against a request and reports how it ended, the way Passport's
 * `authenticate` middleware drives a strategy (it too augments a copy of the strategy with `success`,
 * `fail` and `error`), without the middleware's session and redirect machinery that an API does not
 * use. The request may be a narrowed view of the real one, so that the strategy reads only what it is
 * allowed to (see BearerTokenStrategy).
 */
export function runStrategy<U>(strategy: Strategy, request: object): Promise<StrategyOutcome<U>> {
  return new Promise((resolve, reject) => {
    const attempt = Object.create(strategy) as Record<string, unknown> & { authenticate(request: unknown, options: object): void };
    attempt.success = (user: U) => resolve({ type: 'success', user });
    attempt.fail = (challenge?: unknown, status?: number) =>
      resolve(typeof challenge === 'number' ? { type: 'fail', status: challenge } : { type: 'fail', challenge, status });
    attempt.error = (error: unknown) => reject(error);
    attempt.pass = () => resolve({ type: 'fail' });
    attempt.redirect = () => reject(new Error('An authentication strategy attempted a redirect'));
    try {
      attempt.authenticate(request, {});
    } catch (error) {
      reject(error);
    }
  });
}

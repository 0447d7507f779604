import type { INestApplicationContext, Type } from '@nestjs/common';
import passport from 'passport';
import { ApiKeyStrategy } from '../../src/auth/strategies/api-key.strategy';
import { BearerStrategy } from '../../src/auth/strategies/bearer.strategy';
import { DpopStrategy } from '../../src/auth/strategies/dpop.strategy';

/** The names the application's strategies register under with Passport, and their classes. */
const STRATEGIES: Record<string, Type<PassportLike>> = { bearer: BearerStrategy, 'api-key': ApiKeyStrategy, dpop: DpopStrategy };

interface PassportLike {
  authenticate(request: unknown, options?: unknown): void;
}

/** What Passport adds to the per-request copy of a strategy (passport/lib/middleware/authenticate.js). */
const ACTIONS = ['success', 'fail', 'redirect', 'pass', 'error'] as const;

/** Each live application's strategies, by the Fastify instance its requests come through. */
const applications = new Map<object, Map<string, PassportLike>>();

/**
 * Passport keeps one registry of strategies per process, by name, and `PassportStrategy` registers each
 * strategy under its fixed name (`bearer`, `api-key`, `dpop`) when the application builds it. A process in
 * production runs one application; the test suites start several in one process, each on its own database,
 * and the last one built would verify every application's requests with its own look-ups.
 *
 * So the suites put a router under each of those names: it hands a request to the strategy of the
 * application it came through (`request.server`, the Fastify instance, or any object the caller keys the
 * application by), on a per-request copy carrying Passport's actions, as Passport itself does. Called after
 * an application is built (its construction registered its own strategies over the routers); the returned
 * function forgets the application when it closes.
 */
export function ownPassportStrategies(app: INestApplicationContext, server: object): () => void {
  applications.set(server, new Map(Object.entries(STRATEGIES).map(([name, type]) => [name, app.get(type, { strict: false })])));
  for (const name of Object.keys(STRATEGIES)) passport.use(name, router(name) as never);
  return () => {
    applications.delete(server);
  };
}

function router(name: string) {
  return {
    name,
    authenticate(this: PassportLike & Record<(typeof ACTIONS)[number], unknown>, request: { server?: object }, options?: unknown) {
      const own = request.server === undefined ? undefined : applications.get(request.server)?.get(name);
      if (!own) {
        (this.error as (error: Error) => void)(new Error(`No application's "${name}" strategy serves this request`));
        return;
      }
      const strategy = Object.create(own) as PassportLike & Record<string, unknown>;
      for (const action of ACTIONS) strategy[action] = this[action];
      strategy.authenticate(request, options);
    },
  };
}

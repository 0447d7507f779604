import type { IncomingMessage } from 'node:http';
import type { OnModuleDestroy } from '@nestjs/common';
import passport from 'passport';
import type { AppError } from '../../common/errors/app-error';

type Done = (error: unknown, user?: unknown, refusal?: AppError) => void;

/**
 * The Passport strategy of this service's three credentials (`bearer`, `dpop`, `api-key`): `verify`, which
 * `PassportStrategy` wires to the strategy's `validate()`, gets Node's request and reads its own header
 * and nothing else. A generic strategy rather than `passport-http-bearer`, which also takes
 * `access_token` from the query and the body (RFC 6750 §2.2, §2.3; tokens in URLs end up in logs, RFC
 * 6750 §5.3) and whose failures say only "400" or a challenge string; here a refusal is the app's own
 * error (an `AppError` with its challenge), handed to the guard's `handleRequest` as Passport's `info`.
 * Passport runs it on a per-request copy to which it adds `success`, `fail` and `error`.
 */
export class RequestStrategy implements OnModuleDestroy {
  declare success: (user: unknown) => void;
  declare fail: (refusal: AppError | undefined, status: number) => void;
  declare error: (error: unknown) => void;

  constructor(
    readonly name: string,
    private readonly verify: (request: IncomingMessage, done: Done) => void,
  ) {}

  /** A closed application's strategy leaves Passport's registry (see strategyName). */
  onModuleDestroy(): void {
    passport.unuse(this.name);
  }

  authenticate(request: IncomingMessage): void {
    this.verify(request, (error, user, refusal) => {
      if (error) return this.error(error);
      if (!user) return this.fail(refusal, 401);
      this.success(user);
    });
  }
}

const applications = new Map<string, number>();

/**
 * The name a strategy registers under. Passport keeps one registry of strategies per process, by name.
 * A process runs one application, whose strategies are `bearer`, `dpop` and `api-key`; but the test suites
 * start several applications in one process, each on its own database, and each must verify its requests
 * with its own strategies (its own look-ups). So every further instance of a strategy gets a name of its
 * own (`bearer#2`, …), and the guards of its application, which are given that instance, ask Passport for
 * it by that name (see CredentialAuthGuard).
 */
export function strategyName(kind: string): string {
  const instance = (applications.get(kind) ?? 0) + 1;
  applications.set(kind, instance);
  return instance === 1 ? kind : `${kind}#${instance}`;
}

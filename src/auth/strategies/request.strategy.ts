import type { FastifyRequest } from 'fastify';
import type { AppError } from '../../common/errors/app-error';

type Done = (error: unknown, user?: unknown, refusal?: AppError) => void;

/**
 * A Passport strategy that hands the whole request to `verify`, which `PassportStrategy` wires to the
 * strategy's `validate()`: for DPoP (RFC 9449), whose proof binds the method, the URL and the token, so
 * no credential-string strategy fits. A refusal is the app's own error (an `AppError` with its challenge),
 * handed to the guard's `handleRequest` as Passport's `info`. Passport runs it on a per-request copy to
 * which it adds `success`, `fail` and `error`.
 */
export class RequestStrategy {
  readonly name: string = 'request';
  declare success: (user: unknown) => void;
  declare fail: (refusal: AppError | undefined, status: number) => void;
  declare error: (error: unknown) => void;

  constructor(private readonly verify: (request: FastifyRequest, done: Done) => void) {}

  authenticate(request: FastifyRequest): void {
    this.verify(request, (error, user, refusal) => {
      if (error) return this.error(error);
      if (!user) return this.fail(refusal, 401);
      this.success(user);
    });
  }
}

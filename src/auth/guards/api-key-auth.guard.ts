import type { IncomingMessage } from 'node:http';
import { ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { ApiKeyIdentity } from '../principal';
import { ApiKeyStrategy } from '../strategies/api-key.strategy';

/** Three outcomes, never a silent fourth: no header (anonymous), a live key (its tier), or a refused key. */
export type ApiKeyOutcome = { kind: 'absent' } | { kind: 'valid'; key: ApiKeyIdentity } | { kind: 'invalid' };

export const API_KEY_ABSENT: ApiKeyOutcome = Object.freeze({ kind: 'absent' });
export const API_KEY_INVALID: ApiKeyOutcome = Object.freeze({ kind: 'invalid' });
const OUTCOME = 'apiKeyOutcome';

/**
 * Runs the `api-key` strategy the way `@nestjs/passport` runs any strategy, and reports what it found
 * instead of refusing: AccessGuard charges the rate limit first (see BearerAuthGuard).
 */
@Injectable()
export class ApiKeyAuthGuard extends AuthGuard('api-key') {
  private readonly authenticateOptions;

  constructor(strategy: ApiKeyStrategy) {
    super();
    this.authenticateOptions = { session: false, property: OUTCOME, strategy };
  }

  /** What the key in `X-Api-Key` is worth. Rejects only if the look-up itself failed. */
  async authenticate(context: ExecutionContext): Promise<ApiKeyOutcome> {
    await this.canActivate(context);
    return (this.getRequest(context) as IncomingMessage & { [OUTCOME]: ApiKeyOutcome })[OUTCOME];
  }

  override getAuthenticateOptions() {
    return this.authenticateOptions;
  }

  override getRequest(context: ExecutionContext): IncomingMessage {
    return context.switchToHttp().getRequest<FastifyRequest>().raw;
  }

  override handleRequest<T = ApiKeyOutcome>(error: unknown, key: ApiKeyIdentity | false): T {
    if (error) throw error;
    return (key ? { kind: 'valid', key } : API_KEY_INVALID) as T;
  }
}

import type { IncomingMessage } from 'node:http';
import { ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { DpopChallenge } from '../challenges';
import { AccessTokenGrant } from '../principal';
import { DpopStrategy } from '../strategies/dpop.strategy';
import { BearerOutcome } from './bearer-auth.guard';

const OUTCOME = 'dpopOutcome';

/**
 * Runs the `dpop` strategy like BearerAuthGuard runs `bearer`, and reports the outcome in the same
 * terms (a valid grant, or an invalid one with its RFC 9449 §7.1 challenge), so that AccessGuard
 * charges the rate limit and answers alike for both schemes.
 */
@Injectable()
export class DpopAuthGuard extends AuthGuard('dpop') {
  private readonly authenticateOptions;

  constructor(strategy: DpopStrategy) {
    super();
    this.authenticateOptions = { session: false, property: OUTCOME, strategy };
  }

  async authenticate(context: ExecutionContext): Promise<BearerOutcome> {
    await this.canActivate(context);
    return (this.getRequest(context) as IncomingMessage & { [OUTCOME]: BearerOutcome })[OUTCOME];
  }

  override getAuthenticateOptions() {
    return this.authenticateOptions;
  }

  override getRequest(context: ExecutionContext): IncomingMessage {
    return context.switchToHttp().getRequest<FastifyRequest>().raw;
  }

  override handleRequest<T = BearerOutcome>(error: unknown, grant: AccessTokenGrant | false, challenge: unknown): T {
    if (error) throw error;
    if (grant) return { kind: 'valid', grant } as T;
    return { kind: 'invalid', challenge: typeof challenge === 'string' && challenge ? challenge : DpopChallenge.invalidToken } as T;
  }
}

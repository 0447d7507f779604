import type { IncomingMessage } from 'node:http';
import { ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { BearerChallenge, DpopChallenge } from '../challenges';
import { AccessTokenGrant } from '../principal';
import { BearerStrategy } from '../strategies/bearer.strategy';

export type BearerOutcome =
  | { kind: 'valid'; grant: AccessTokenGrant }
  /** No Bearer credentials at all (no header, or another scheme such as Basic). */
  | { kind: 'missing'; challenge: string }
  /** Bearer credentials that are malformed, unknown, expired or revoked. */
  | { kind: 'invalid'; challenge: string };

export const BEARER_MISSING: BearerOutcome = Object.freeze({ kind: 'missing', challenge: BearerChallenge.missing });
const BEARER_INVALID: BearerOutcome = Object.freeze({ kind: 'invalid', challenge: BearerChallenge.invalidToken });
/** RFC 9449 §7.2: a DPoP-bound token is no Bearer token; the challenge names the scheme it needs. */
const BOUND_AS_BEARER: BearerOutcome = Object.freeze({ kind: 'invalid', challenge: DpopChallenge.invalidToken });
const BEARER_SCHEME = /^bearer(\s|$)/i;
const OUTCOME = 'bearerOutcome';

/**
 * Runs the `bearer` strategy the way `@nestjs/passport` runs any strategy, and reports what it found
 * instead of refusing: AccessGuard charges the rate limit before it answers 401, so the answer to a
 * failed token is its decision. Passport is given Node's own request object (`request.raw`), as under
 * Express, so that the helpers it adds (`logIn`, `authInfo`…) stay off Fastify's request.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  private readonly authenticateOptions;

  constructor(strategy: BearerStrategy) {
    super();
    this.authenticateOptions = { session: false, property: OUTCOME, strategy };
  }

  /** What the token in the `Authorization` header is worth. Rejects only if the look-up itself failed. */
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

  override handleRequest<T = BearerOutcome>(error: unknown, grant: AccessTokenGrant | false, challenge: unknown, context: ExecutionContext, status?: unknown): T {
    if (error) throw error;
    if (grant) return (grant.jkt === null ? { kind: 'valid', grant } : BOUND_AS_BEARER) as T;
    // The library answers 400 for a header it cannot split into scheme and credentials. A Bearer header
    // like that is a malformed token (RFC 6750 §3.1, answered 401 invalid_token by docs/using-the-api.md, Envelopes); any
    // other scheme carries no Bearer credentials at all, which gets the bare challenge (RFC 6750 §3).
    if (status === 400) return (BEARER_SCHEME.test(this.getRequest(context).headers.authorization ?? '') ? BEARER_INVALID : BEARER_MISSING) as T;
    return (typeof challenge === 'string' && challenge.includes('error=') ? BEARER_INVALID : BEARER_MISSING) as T;
  }
}

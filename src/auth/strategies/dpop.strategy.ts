import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { DpopResourceOutcome, DpopService } from '../dpop/dpop.service';
import { AccessTokenGrant } from '../principal';
import { OwnedAuthenticateOptions, verifiedBy } from './owned-strategy';

type Verify = (request: IncomingMessage, done: (error: unknown, grant?: AccessTokenGrant | false, challenge?: string) => void) => void;

/**
 * A Passport strategy that hands the whole request to `verify`: a DPoP proof is checked against the
 * request's method, URI and headers (RFC 9449 §4.3), not just a credential string. Passport runs it on a
 * per-request copy to which it adds `success`, `fail` and `error`.
 */
class RequestStrategy {
  declare success: (grant: AccessTokenGrant) => void;
  declare fail: (challenge: string, status: number) => void;
  declare error: (error: unknown) => void;

  constructor(private readonly verify: Verify) {}

  authenticate(request: IncomingMessage, _options?: unknown): void {
    this.verify(request, (error, grant, challenge) => {
      if (error) return this.error(error);
      if (!grant) return this.fail(challenge ?? '', 401);
      this.success(grant);
    });
  }
}

/**
 * RFC 9449 §7: `Authorization: DPoP <token>` with a `DPoP` proof whose `htm`, `htu` and `ath` match the
 * request, signed by the key the token is bound to. Only requests using the DPoP scheme reach it (see
 * AccessGuard), so Bearer calls never pay for a signature check. `validate()` answers the grant, or
 * false with the RFC 9449 §7.1 challenge for DpopAuthGuard.
 */
@Injectable()
export class DpopStrategy extends PassportStrategy(RequestStrategy, 'dpop') {
  constructor(private readonly dpop: DpopService) {
    super();
  }

  async validate(request: IncomingMessage): Promise<AccessTokenGrant | [false, string]> {
    const outcome: DpopResourceOutcome = await this.dpop.resource(request);
    return outcome.kind === 'valid' ? outcome.grant : [false, outcome.challenge];
  }

  override authenticate(request: IncomingMessage, options?: OwnedAuthenticateOptions): void {
    verifiedBy(this, options);
    super.authenticate(request, options);
  }
}

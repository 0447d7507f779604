import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../common/errors/app-error';
import { DpopService } from '../dpop/dpop.service';
import { AccessTokenGrant } from '../principal';
import { ProtectedResources } from '../protected-resources';
import { RequestStrategy } from './request.strategy';

/**
 * RFC 9449 §7: `Authorization: DPoP <token>` with a `DPoP` proof whose `htm`, `htu` and `ath` match the
 * request, signed by the key the token is bound to: the whole request is checked, not just a credential
 * string, so no package's strategy fits and this one is the service's own. Only requests using the DPoP
 * scheme reach it (see DpopAuthGuard), so Bearer calls never pay for a signature check. A refusal carries
 * the RFC 9449 §7.1 challenge of the error DpopService chose, naming the resource's metadata.
 */
@Injectable()
export class DpopStrategy extends PassportStrategy(RequestStrategy, 'dpop') {
  constructor(
    private readonly dpop: DpopService,
    private readonly resources: ProtectedResources,
  ) {
    super();
  }

  async validate(request: FastifyRequest): Promise<AccessTokenGrant | [false, AppError]> {
    const outcome = await this.dpop.resource(request.raw);
    // RFC 9728 §5.1: the challenge names the resource's metadata, as the Bearer ones do.
    const challenges = this.resources.challengesAt(request);
    if (outcome.kind !== 'valid') {
      return [false, new AppError('UNAUTHORIZED', { headers: { 'www-authenticate': outcome.error === 'invalid_token' ? challenges.dpopInvalidToken : challenges.dpopInvalidProof } })];
    }
    // RFC 8707: a bound token too is honoured only by the resource it was issued for, as in BearerStrategy.
    if (this.resources.audienceOf(outcome.grant.audience) !== this.resources.requestedAt(request)) {
      return [false, new AppError('UNAUTHORIZED', { headers: { 'www-authenticate': challenges.dpopInvalidToken } })];
    }
    return outcome.grant;
  }
}

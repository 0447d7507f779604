import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { AppError } from '../../common/errors/app-error';
import { AccessTokenLookupService } from '../access-token-lookup.service';
import { BearerChallenge, DpopChallenge } from '../challenges';
import { AccessTokenGrant } from '../principal';
import { RequestStrategy, strategyName } from './request.strategy';

/** RFC 6750 §2.1: `Authorization: Bearer <token>`, the scheme in any case; the guard runs this strategy only for it. */
export const BEARER_SCHEME = /^bearer(\s|$)/i;
/** One space and one token; anything else with the Bearer scheme (no token, two parts, two spaces) is malformed. */
const BEARER_CREDENTIALS = /^bearer ([^ ]+)$/i;

/**
 * RFC 6750 Bearer access tokens, from the `Authorization` header only (see RequestStrategy). `validate()`
 * is the whole check: one look-up of the token's hash (cached for TOKEN_CACHE_TTL_MS), no query at all
 * for a string that cannot be one of this server's tokens. A failing look-up (database down) is an
 * error, not a 401. A malformed, unknown, expired or revoked token is refused with the RFC 6750 §3.1
 * `invalid_token` challenge; a DPoP-bound one with the DPoP challenge (RFC 9449 §7.2).
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(RequestStrategy) {
  constructor(private readonly tokens: AccessTokenLookupService) {
    super(strategyName('bearer'));
  }

  async validate(request: IncomingMessage): Promise<AccessTokenGrant | [false, AppError]> {
    const token = BEARER_CREDENTIALS.exec(request.headers.authorization ?? '')?.[1];
    const grant = token === undefined ? null : await this.tokens.find(token);
    if (!grant) return [false, new AppError('UNAUTHORIZED', { headers: { 'www-authenticate': BearerChallenge.invalidToken } })];
    // RFC 9449 §7.2: a DPoP-bound token is no Bearer token; the challenge names the scheme it needs.
    if (grant.jkt !== null) return [false, new AppError('UNAUTHORIZED', { headers: { 'www-authenticate': DpopChallenge.invalidToken } })];
    return grant;
  }
}

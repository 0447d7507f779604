import { Injectable } from '@nestjs/common';
import { BEARER_SCHEME, BearerStrategy } from '../strategies/bearer.strategy';
import { CredentialAuthGuard } from './credential-auth.guard';

/**
 * Authentication (auth-guards.ts): the `bearer` strategy, for `Authorization: Bearer …` on a route that
 * needs a token. Another scheme (Basic, Digest) carries no Bearer credentials: nothing is recorded, and
 * ScopesGuard answers with the bare challenge, as for no header (RFC 6750 §3).
 */
@Injectable()
export class BearerAuthGuard extends CredentialAuthGuard(
  BearerStrategy,
  'token',
  (rule, { authorization }) => rule.kind === 'bearer' && authorization !== undefined && BEARER_SCHEME.test(authorization),
) {}

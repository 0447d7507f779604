import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { BEARER_SCHEME } from '../strategies/bearer.strategy';
import { CredentialAuthGuard } from './credential-auth.guard';

/**
 * Authentication (auth-guards.ts): the `bearer` strategy, for `Authorization: Bearer …` on a route that
 * needs a token. Another scheme (Basic, Digest) carries no Bearer credentials: nothing is recorded, and
 * ScopesGuard answers with the bare challenge, as for no header (RFC 6750 §3). With the Bearer scheme,
 * every refusal of `passport-http-bearer` (its 400 for a malformed header or a second token in the query
 * or the body, its bare challenge for an empty token, its `invalid_token` for an unknown one) is answered
 * 401 with the `invalid_token` challenge (RFC 6750 §3.1).
 */
@Injectable()
export class BearerAuthGuard extends CredentialAuthGuard('bearer', {
  kind: 'token',
  presented: (rule, { authorization }) => rule.kind === 'bearer' && authorization !== undefined && BEARER_SCHEME.test(authorization),
  refusal: (_info, challenges) => new AppError('UNAUTHORIZED', { headers: { 'www-authenticate': challenges.invalidToken } }),
}) {}

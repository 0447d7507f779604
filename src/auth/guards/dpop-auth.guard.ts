import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { DPOP_SCHEME } from '../dpop/dpop.service';
import { CredentialAuthGuard } from './credential-auth.guard';

/**
 * Authentication (auth-guards.ts): the `dpop` strategy, for `Authorization: DPoP …` (RFC 9449 §7.1, the
 * scheme in any case) on a route that needs a token. Its verdict stands where a Bearer token's would: a
 * request has one `Authorization` header, so at most one of this guard and BearerAuthGuard runs, and
 * only DPoP requests pay for a proof's signature check. DpopStrategy refuses with the app's own error.
 */
@Injectable()
export class DpopAuthGuard extends CredentialAuthGuard('dpop', {
  kind: 'token',
  presented: (rule, { authorization }) => rule.kind === 'bearer' && authorization !== undefined && DPOP_SCHEME.test(authorization),
  refusal: (info) => info as AppError,
}) {}

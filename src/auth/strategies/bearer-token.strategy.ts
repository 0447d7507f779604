import { Injectable } from '@nestjs/common';
import { Strategy as HttpBearerStrategy, VerifyFunction } from 'passport-http-bearer';
import { AccessTokenLookupService } from '../access-token-lookup.service';
import { BearerChallenge, REALM } from '../challenges';
import { AccessTokenGrant } from '../principal';
import { runStrategy } from './run-strategy';

export type BearerOutcome =
  | { kind: 'valid'; grant: AccessTokenGrant }
  /** No Bearer credentials at all (no header, or another scheme such as Basic). */
  | { kind: 'missing'; challenge: string }
  /** Bearer credentials that are malformed, unknown, expired or revoked. */
  | { kind: 'invalid'; challenge: string };

const BEARER_SCHEME = /^bearer(\s|$)/i;

/**
 * `passport-http-bearer`, restricted to the `Authorization` header. The library also takes
 * `access_token` from the query string and the form body (RFC 6750 §2.2, §2.3); this API accepts only
 * the header (RFC 6750 §2.1): tokens in URLs end up in logs, histories and Referer headers (RFC 6750
 * §5.3). The strategy therefore sees a view of the request that has the header and nothing else.
 */
@Injectable()
export class BearerTokenStrategy {
  private readonly strategy: HttpBearerStrategy<VerifyFunction>;

  constructor(tokens: AccessTokenLookupService) {
    this.strategy = new HttpBearerStrategy<VerifyFunction>({ realm: REALM }, (token: string, done) => {
      tokens.find(token).then((grant) => done(null, grant ?? false), done);
    });
  }

  async authenticate(authorization: string | undefined): Promise<BearerOutcome> {
    if (!authorization) return { kind: 'missing', challenge: BearerChallenge.missing };
    const outcome = await runStrategy<AccessTokenGrant>(this.strategy, { headers: { authorization } });
    if (outcome.type === 'success') return { kind: 'valid', grant: outcome.user };
    // The library answers 400 for a header it cannot split into scheme and credentials. A Bearer header
    // like that is a malformed token (RFC 6750 §3.1, answered 401 invalid_token by CONTRACT §1); any
    // other scheme carries no Bearer credentials at all, which gets the bare challenge (RFC 6750 §3).
    if (outcome.status === 400) {
      return BEARER_SCHEME.test(authorization)
        ? { kind: 'invalid', challenge: BearerChallenge.invalidToken }
        : { kind: 'missing', challenge: BearerChallenge.missing };
    }
    const challenge = typeof outcome.challenge === 'string' ? outcome.challenge : '';
    return challenge.includes('error=')
      ? { kind: 'invalid', challenge: BearerChallenge.invalidToken }
      : { kind: 'missing', challenge: BearerChallenge.missing };
  }
}

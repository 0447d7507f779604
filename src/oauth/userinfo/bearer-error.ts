import type { FastifyReply } from 'fastify';
import { BearerChallenge, DpopChallenge, REALM } from '../../auth/challenges';
import { oauthDescription } from '../../common/errors/oauth-error';
import { RenderedError } from '../../common/errors/rendered-error';

export type BearerErrorCode = 'invalid_request' | 'invalid_token' | 'insufficient_scope' | 'invalid_dpop_proof';

/**
 * An error of a resource the authorization server protects itself (UserInfo, OpenID Connect Core
 * §5.3.3): RFC 6750 §3 status and `WWW-Authenticate` challenge, with the same two fields in a JSON body
 * for clients that read bodies rather than headers. Never the API envelope.
 */
export class BearerError extends RenderedError {
  private constructor(
    readonly status: number,
    readonly error: BearerErrorCode,
    readonly description: string,
    readonly challenge: string,
  ) {
    super(`${error}: ${description}`);
    this.name = 'BearerError';
  }

  /** RFC 6750 §3.1: no credentials at all get the bare challenge, with no error code in it. */
  static missing(): BearerError {
    return new BearerError(401, 'invalid_token', 'An access token is required: send it as Authorization: Bearer <token>.', BearerChallenge.missing);
  }

  static invalidToken(description = 'The access token is invalid, expired or revoked.'): BearerError {
    return new BearerError(401, 'invalid_token', description, BearerChallenge.invalidToken);
  }

  static insufficientScope(scope: string, description: string): BearerError {
    return new BearerError(403, 'insufficient_scope', description, BearerChallenge.insufficientScope([scope]));
  }

  /** RFC 9449 §7.1: DPoP credentials that fail, or a DPoP-bound token sent as Bearer: the DPoP challenge. */
  static dpop(error: 'invalid_token' | 'invalid_dpop_proof', description: string): BearerError {
    return new BearerError(401, error, description, error === 'invalid_token' ? DpopChallenge.invalidToken : DpopChallenge.invalidProof);
  }

  static invalidRequest(description: string): BearerError {
    return new BearerError(400, 'invalid_request', description, `Bearer realm="${REALM}", error="invalid_request"`);
  }

  render(reply: FastifyReply): void {
    reply
      .status(this.status)
      .headers({ 'www-authenticate': this.challenge, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', pragma: 'no-cache' })
      .send(JSON.stringify({ error: this.error, error_description: oauthDescription(this.description) }));
  }
}

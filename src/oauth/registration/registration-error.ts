import type { FastifyReply } from 'fastify';
import { oauthDescription } from '../../common/errors/oauth-error';
import { RenderedError } from '../../common/errors/rendered-error';

/**
 * The errors of the registration endpoints (docs/integrate-with-oauth.md, "Register a client dynamically"):
 * RFC 7591 §3.2.2 `invalid_redirect_uri` and `invalid_client_metadata` (400), `access_denied` (403) while
 * registration is closed, and RFC 6750 §3.1 `invalid_token` (401) for a missing or wrong registration access
 * token at the client configuration endpoint (RFC 7592 §2).
 */
export type RegistrationErrorCode = 'invalid_redirect_uri' | 'invalid_client_metadata' | 'access_denied' | 'invalid_token';

/** The protection space of the client configuration endpoint (RFC 6750 §3), apart from the API's. */
export const REGISTRATION_REALM = 'oauth-registration';

const STATUS: Record<RegistrationErrorCode, number> = {
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  access_denied: 403,
  invalid_token: 401,
};

/** `{error, error_description}` as JSON, never the API envelope, never cached. */
export class RegistrationError extends RenderedError {
  readonly description: string;

  constructor(
    readonly error: RegistrationErrorCode,
    description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${error}: ${description}`);
    this.name = 'RegistrationError';
    this.description = oauthDescription(description);
  }

  get status(): number {
    return STATUS[this.error];
  }

  /**
   * RFC 7592 §2 and RFC 6750 §3.1: no Bearer credentials get the bare challenge; a token that is not this
   * client's registration access token (unknown, another client's, of a deleted client) gets
   * `error="invalid_token"`. One answer for every such case, so the endpoint never tells which client ids exist.
   */
  static token(sent: boolean): RegistrationError {
    return new RegistrationError(
      'invalid_token',
      sent ? 'The registration access token is not valid for this client.' : 'Send the registration access token as Authorization: Bearer <token>.',
      { 'www-authenticate': sent ? `Bearer realm="${REGISTRATION_REALM}", error="invalid_token"` : `Bearer realm="${REGISTRATION_REALM}"` },
    );
  }

  render(reply: FastifyReply): void {
    reply
      .status(this.status)
      .headers({ ...this.headers, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', pragma: 'no-cache' })
      .send(JSON.stringify({ error: this.error, error_description: this.description }));
  }
}

import type { FastifyReply } from 'fastify';
import { ERROR_CATALOGUE } from './error-codes';
import { ErrorFormat, Failure } from './error-format';
import { RenderedError } from './rendered-error';

/** RFC 6749 §4.1.2.1 error codes of the authorization endpoint, plus the prompt ones of OIDC Core §3.1.2.6. */
export type AuthorizationErrorCode =
  | 'invalid_request'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'login_required'
  | 'consent_required'
  | 'server_error'
  // RFC 8707 §2: a resource this server issues no tokens for.
  | 'invalid_target';

/** RFC 6749 §5.2 error codes, plus RFC 6750 §3.1, RFC 7009 §2.2.1 and RFC 8628 §3.5 additions used by this server. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  // RFC 9126 §2.3: a pushed authorization request is answered with the authorize endpoint's codes too.
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'slow_down'
  | 'authorization_pending'
  | 'access_denied'
  | 'expired_token'
  /** RFC 9449 §5, §12.2: the DPoP proof of a token request is missing, invalid or used before. */
  | 'invalid_dpop_proof'
  /** RFC 8707 §2: the `resource` is none of this server's, or not one the grant was asked for. */
  | 'invalid_target';

const STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  unsupported_response_type: 400,
  unsupported_token_type: 400,
  server_error: 500,
  temporarily_unavailable: 503,
  // RFC 8628 §3.5: the device grant's answers are token error responses (RFC 6749 §5.2: 400).
  slow_down: 400,
  authorization_pending: 400,
  access_denied: 400,
  expired_token: 400,
  invalid_dpop_proof: 400,
  invalid_target: 400,
};

/** Every code above, e.g. for the reference's enum and the bounded values of a metrics label. */
export const OAUTH_ERROR_CODES = Object.keys(STATUS) as readonly OAuthErrorCode[];

/**
 * RFC 6749 §4.1.2.1 and §5.2: `error_description` is limited to %x20-21 / %x23-5B / %x5D-7E. Anything
 * else (a quote, a backslash, a control or non-ASCII character) is replaced, so that no description
 * can break out of the character set whatever it was built from.
 */
export function oauthDescription(text: string): string {
  return text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?');
}

/** RFC 8707 §2: what a `resource` that is none of the platform's is told (docs/integrate-with-oauth.md, "Resource indicators"). */
export const INVALID_TARGET = 'The resource must be this platform\'s public API or its MCP endpoint (see /.well-known/oauth-protected-resource/...).';

/** "The parameter X was sent more than once.", naming X only when it is a plain parameter name. */
export function repeatedParameterDescription(name: string): string {
  return /^[A-Za-z0-9_.-]{1,64}$/.test(name) ? `The parameter ${name} was sent more than once.` : 'A parameter was sent more than once.';
}

/**
 * The error body of the client-facing OAuth endpoints (`/oauth/token`, `/oauth/revoke`,
 * `/oauth/introspect`): RFC 6749 §5.2 JSON, never the API envelope, so that off-the-shelf OAuth
 * client libraries understand it.
 */
export class OAuthError extends RenderedError {
  readonly status: number;
  readonly description: string;

  constructor(
    readonly error: OAuthErrorCode,
    description: string,
    readonly headers: Record<string, string> = {},
    status?: number,
  ) {
    super(`${error}: ${description}`);
    this.name = 'OAuthError';
    this.description = oauthDescription(description);
    this.status = status ?? STATUS[error];
  }

  render(reply: FastifyReply): void {
    reply
      .status(this.status)
      .headers({
        ...this.headers,
        'content-type': 'application/json; charset=utf-8',
        // RFC 6749 §5.1 asks for this on token responses; errors must not be cached either.
        'cache-control': 'no-store',
        pragma: 'no-cache',
      })
      .send(JSON.stringify({ error: this.error, error_description: this.description }));
  }
}

/**
 * The failures of a client-facing OAuth endpoint (docs/integrate-with-oauth.md), whatever raised them, as RFC 6749 §5.2
 * bodies: declared with `@SkipEnvelope({ errors: OAUTH_JSON_ERRORS })`.
 */
export const OAUTH_JSON_ERRORS: ErrorFormat = {
  send(reply, failure) {
    asOAuthError(failure).render(reply);
  },
  unparsedBody(code) {
    return { error: 'invalid_request', error_description: ERROR_CATALOGUE[code].en };
  },
};

function asOAuthError(failure: Failure): OAuthError {
  const { status, en } = ERROR_CATALOGUE[failure.code];
  // RFC 6749 §5.2: error_description is limited to printable ASCII, so it is always English.
  if (failure.code === 'SERVICE_UNAVAILABLE') return new OAuthError('temporarily_unavailable', en, failure.headers);
  if (status >= 500) return new OAuthError('server_error', en);
  const headers = { ...failure.headers };
  delete headers['www-authenticate'];
  return new OAuthError('invalid_request', en, headers, status);
}

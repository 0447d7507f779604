import type { FastifyRequest } from 'fastify';
import { OAuthError, repeatedParameterDescription } from '../../common/errors/oauth-error';

/** The endpoints that read a client-authenticated form (RFC 6749 §3.2, RFC 7009 §2.1, RFC 7662 §2.1, RFC 8628 §3.1, RFC 9126 §2.1). */
const CLIENT_AUTHENTICATED_PATHS = new Set(['/oauth/token', '/oauth/revoke', '/oauth/introspect', '/oauth/device_authorization', '/oauth/par']);

export function isClientAuthenticatedPath(path: string): boolean {
  return CLIENT_AUTHENTICATED_PATHS.has(path);
}

/** The parameters of a client-authenticated OAuth request, each sent once and with a value. */
export type OAuthForm = Record<string, string>;

/**
 * Reads the body of `/oauth/token`, `/oauth/revoke` and `/oauth/introspect`: RFC 6749 §3.2 and
 * RFC 7009 §2.1 / RFC 7662 §2.1 require `application/x-www-form-urlencoded`. Fastify parses a JSON
 * body just as happily, so the content type is checked here. RFC 6749 §3.2: parameters sent without a
 * value are treated as omitted, and no parameter may be sent more than once.
 */
export function readOAuthForm(request: FastifyRequest): OAuthForm {
  assertFormContentType(request);
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object') throw new OAuthError('invalid_request', 'The request body could not be parsed.');
  const form: OAuthForm = {};
  for (const [name, value] of Object.entries(body)) {
    if (Array.isArray(value)) throw new OAuthError('invalid_request', repeatedParameterDescription(name));
    if (typeof value === 'string' && value !== '') form[name] = value;
  }
  return form;
}

/** RFC 6749 §5.2: any other content type is an `invalid_request` (400), whatever the body parser thinks of it. */
export function assertFormContentType(request: FastifyRequest): void {
  const contentType = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (contentType !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', 'The request body must be application/x-www-form-urlencoded.');
  }
}

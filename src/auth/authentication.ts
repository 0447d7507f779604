import type { AppError } from '../common/errors/app-error';
import type { AccessTokenGrant, ApiKeyIdentity } from './principal';

/**
 * What the authentication guards found on `request.authentication`, for the rate-limit and scopes
 * guards after them: a credential is either accepted or refused with the error to answer, and the answer
 * waits until the request is counted (see src/auth/guards/auth-guards.ts). Absent when no credential was
 * presented.
 */
export interface Authentication {
  /** A valid access token (Bearer or DPoP). */
  grant?: AccessTokenGrant;
  /** The presented token's refusal: 401 with its challenge. */
  tokenRefusal?: AppError;
  /** A valid API key. */
  apiKey?: ApiKeyIdentity;
  /** The presented key's refusal: 401 INVALID_API_KEY. */
  apiKeyRefusal?: AppError;
}

declare module 'fastify' {
  interface FastifyRequest {
    authentication?: Authentication;
  }
}

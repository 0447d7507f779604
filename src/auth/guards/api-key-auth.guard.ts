import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { API_KEY_HEADER } from '../strategies/api-key.strategy';
import { CredentialAuthGuard } from './credential-auth.guard';

/**
 * Authentication (auth-guards.ts): the `api-key` strategy, for an `X-Api-Key` header on any route that
 * is not public, beside a token or alone. An unknown or revoked key (ApiKeyStrategy's refusal, handed on
 * by `passport-headerapikey`), the library's own refusal of an empty header, and a header given more than
 * once (never one key) all get 401 INVALID_API_KEY. Its challenge names the key's scheme and, as every 401
 * of a protected resource does (docs/using-the-api.md, Authentication; RFC 9728 §5.1), the Bearer scheme
 * with the resource's metadata, so a client that meets it can still find how to get a token.
 */
@Injectable()
export class ApiKeyAuthGuard extends CredentialAuthGuard('api-key', {
  kind: 'api-key',
  presented: (_rule, headers) => headers[API_KEY_HEADER] !== undefined,
  refusal: (_info, challenges) => new AppError('INVALID_API_KEY', { headers: { 'www-authenticate': `ApiKey realm="api", ${challenges.missing}` } }),
  malformed: (headers) => typeof headers[API_KEY_HEADER] !== 'string',
}) {}

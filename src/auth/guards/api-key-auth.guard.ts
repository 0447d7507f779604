import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { API_KEY_HEADER } from '../strategies/api-key.strategy';
import { CredentialAuthGuard } from './credential-auth.guard';

/**
 * Authentication (auth-guards.ts): the `api-key` strategy, for an `X-Api-Key` header on any route that
 * is not public, beside a token or alone. An unknown or revoked key (ApiKeyStrategy's refusal, handed on
 * by `passport-headerapikey`), the library's own refusal of an empty header, and a header given more than
 * once (never one key) all get 401 INVALID_API_KEY, with the resource's `invalidApiKey` challenge.
 */
@Injectable()
export class ApiKeyAuthGuard extends CredentialAuthGuard('api-key', {
  kind: 'api-key',
  presented: (_rule, headers) => headers[API_KEY_HEADER] !== undefined,
  refusal: (_info, challenges) => new AppError('INVALID_API_KEY', { headers: { 'www-authenticate': challenges.invalidApiKey } }),
  malformed: (headers) => typeof headers[API_KEY_HEADER] !== 'string',
}) {}

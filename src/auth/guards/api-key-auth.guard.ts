import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { API_KEY_HEADER } from '../strategies/api-key.strategy';
import { CredentialAuthGuard } from './credential-auth.guard';

/**
 * Authentication (auth-guards.ts): the `api-key` strategy, for an `X-Api-Key` header on any route that
 * is not public, beside a token or alone. ApiKeyStrategy refuses an unknown key with INVALID_API_KEY,
 * which `passport-headerapikey` hands on unchanged; the library's own refusal of an empty header, and a
 * header given more than once (never one key), get the same answer.
 */
@Injectable()
export class ApiKeyAuthGuard extends CredentialAuthGuard('api-key', {
  kind: 'api-key',
  presented: (_rule, headers) => headers[API_KEY_HEADER] !== undefined,
  refusal: (info) => (info instanceof AppError ? info : new AppError('INVALID_API_KEY')),
  malformed: (headers) => typeof headers[API_KEY_HEADER] !== 'string',
}) {}

import { Injectable } from '@nestjs/common';
import { API_KEY_HEADER, ApiKeyStrategy } from '../strategies/api-key.strategy';
import { CredentialAuthGuard } from './credential-auth.guard';

/**
 * Authentication (auth-guards.ts): the `api-key` strategy, for an `X-Api-Key` header on any route that
 * is not public, beside a token or alone.
 */
@Injectable()
export class ApiKeyAuthGuard extends CredentialAuthGuard(ApiKeyStrategy, 'api-key', (_rule, headers) => headers[API_KEY_HEADER] !== undefined) {}

import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ApiKeysService } from '../../api-keys/api-keys.service';
import { AppError } from '../../common/errors/app-error';
import { ApiKeyIdentity } from '../principal';
import { RequestStrategy, strategyName } from './request.strategy';

export const API_KEY_HEADER = 'x-api-key';

/**
 * Developer API keys in `X-Api-Key`. `validate()` looks the key up by its hash; an unknown or revoked
 * key, like an empty header, is refused (401 INVALID_API_KEY, docs/using-the-api.md). A request without
 * the header, or with it repeated, never reaches it (see ApiKeyAuthGuard).
 */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(RequestStrategy) {
  constructor(private readonly apiKeys: ApiKeysService) {
    super(strategyName('api-key'));
  }

  async validate(request: IncomingMessage): Promise<ApiKeyIdentity | [false, AppError]> {
    const key = request.headers[API_KEY_HEADER];
    const identity = typeof key === 'string' && key !== '' ? await this.apiKeys.authenticate(key) : null;
    return identity ?? [false, new AppError('INVALID_API_KEY')];
  }
}

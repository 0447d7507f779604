import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { ApiKeysService } from '../../api-keys/api-keys.service';
import { ApiKeyIdentity } from '../principal';

export const API_KEY_HEADER = 'x-api-key';

/**
 * Developer API keys in `X-Api-Key`, through `passport-headerapikey` (the design card's strategy).
 * `validate()` looks the key up by its hash; an unknown or revoked key is refused (`false`), as an empty
 * header is by the library itself, and ApiKeyAuthGuard answers both 401 INVALID_API_KEY
 * (docs/using-the-api.md); a request without the header never reaches it.
 */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(HeaderAPIKeyStrategy, 'api-key') {
  constructor(private readonly apiKeys: ApiKeysService) {
    super({ header: API_KEY_HEADER, prefix: '' }, false);
  }

  async validate(key: string): Promise<ApiKeyIdentity | false> {
    return (await this.apiKeys.authenticate(key)) ?? false;
  }
}

import type { IncomingHttpHeaders } from 'node:http';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { ApiKeysService } from '../../api-keys/api-keys.service';
import { ApiKeyIdentity } from '../principal';
import { OwnedAuthenticateOptions, verifiedBy } from './owned-strategy';

export const API_KEY_HEADER = 'x-api-key';

/**
 * Developer API keys in `X-Api-Key`, through `passport-headerapikey`. `validate()` looks the key up by
 * its hash; an unknown or revoked key, like an empty header, fails (401 INVALID_API_KEY, docs/using-the-api.md).
 * The library sees only that header. A request without the header never reaches it (see AccessGuard).
 */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(HeaderAPIKeyStrategy, 'api-key') {
  constructor(private readonly apiKeys: ApiKeysService) {
    super({ header: API_KEY_HEADER, prefix: '' }, false);
  }

  /** The identity of a live key; false for any other string. */
  async validate(key: string): Promise<ApiKeyIdentity | false> {
    return (await this.apiKeys.authenticate(key)) ?? false;
  }

  override authenticate(request: { headers: IncomingHttpHeaders }, options?: OwnedAuthenticateOptions): void {
    verifiedBy(this, options);
    super.authenticate({ headers: { [API_KEY_HEADER]: request.headers[API_KEY_HEADER] } } as never, options);
  }
}

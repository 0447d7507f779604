import { Injectable } from '@nestjs/common';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { ApiKeysService } from '../../api-keys/api-keys.service';
import { ApiKeyIdentity } from '../principal';
import { runStrategy } from './run-strategy';

export const API_KEY_HEADER = 'x-api-key';

export type ApiKeyOutcome = { kind: 'absent' } | { kind: 'valid'; key: ApiKeyIdentity } | { kind: 'invalid' };

/**
 * `passport-headerapikey` on the `X-Api-Key` header. Three outcomes, never a silent fourth: no header
 * (anonymous), a valid key (its tier), or a header that was sent but does not name a live key, an empty
 * one included (401 INVALID_API_KEY, CONTRACT §2).
 */
@Injectable()
export class ApiKeyStrategy {
  private readonly strategy: HeaderAPIKeyStrategy;

  constructor(apiKeys: ApiKeysService) {
    this.strategy = new HeaderAPIKeyStrategy({ header: API_KEY_HEADER, prefix: '' }, false, (key: string, done) => {
      apiKeys.authenticate(key).then((identity) => done(null, identity ?? undefined), done);
    });
  }

  async authenticate(header: string | string[] | undefined): Promise<ApiKeyOutcome> {
    if (header === undefined) return { kind: 'absent' };
    // A repeated header is never one valid key.
    if (Array.isArray(header)) return { kind: 'invalid' };
    const outcome = await runStrategy<ApiKeyIdentity>(this.strategy, { headers: { [API_KEY_HEADER]: header } });
    return outcome.type === 'success' ? { kind: 'valid', key: outcome.user } : { kind: 'invalid' };
  }
}

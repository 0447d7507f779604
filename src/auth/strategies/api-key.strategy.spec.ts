import { ApiKeysService } from '../../api-keys/api-keys.service';
import { ApiKeyStrategy } from './api-key.strategy';

describe('ApiKeyStrategy', () => {
  const identity = { id: 1, name: 'k', tier: 'standard' as const };
  const authenticate = jest.fn(async (key: string) => (key === 'sp_key_good' ? identity : null));
  const sut = new ApiKeyStrategy({ authenticate } as unknown as ApiKeysService);

  it('is absent when no header was sent', async () => {
    expect(await sut.authenticate(undefined)).toEqual({ kind: 'absent' });
  });

  it('is valid for a live key', async () => {
    expect(await sut.authenticate('sp_key_good')).toEqual({ kind: 'valid', key: identity });
  });

  it.each(['sp_key_unknown', '', ['sp_key_good', 'sp_key_good']])('is invalid for %j, never anonymous', async (header) => {
    expect(await sut.authenticate(header)).toEqual({ kind: 'invalid' });
  });
});

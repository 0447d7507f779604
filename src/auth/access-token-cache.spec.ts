import { AccessTokenCache, TOKEN_CACHE_MAX_ENTRIES } from './access-token-cache';
import { AccessTokenGrant } from './principal';

const NOW = 1_700_000_000_000;
const grant = (expiresAt = NOW + 3_600_000): AccessTokenGrant => ({ tokenId: 1, userId: 2, clientId: 3, scopes: ['profile'], expiresAt, jkt: null, audience: null });
const cacheWith = (tokenCacheTtlMs: number) => new AccessTokenCache({ tokenCacheTtlMs } as never);

describe('AccessTokenCache', () => {
  it('serves a grant for TOKEN_CACHE_TTL_MS after it was loaded, not longer', () => {
    const sut = cacheWith(2000);
    sut.set('h', grant(), sut.generation, NOW);
    expect(sut.get('h', NOW + 1999)).toEqual(grant());
    expect(sut.get('h', NOW + 2000)).toBeUndefined();
  });

  it('never serves a token past its expiry', () => {
    const sut = cacheWith(60_000);
    sut.set('h', grant(NOW + 500), sut.generation, NOW);
    expect(sut.get('h', NOW + 499)).toBeDefined();
    expect(sut.get('h', NOW + 500)).toBeUndefined();
  });

  it('keeps nothing when off (0)', () => {
    const sut = cacheWith(0);
    sut.set('h', grant(), sut.generation, NOW);
    expect(sut.get('h', NOW)).toBeUndefined();
    expect(sut.size).toBe(0);
  });

  it('forgets everything on a revocation, and refuses a load that began before it', () => {
    const sut = cacheWith(60_000);
    sut.set('a', grant(), sut.generation, NOW);
    const before = sut.generation;
    sut.revoked();
    expect(sut.get('a', NOW)).toBeUndefined();
    sut.set('b', grant(), before, NOW);
    expect(sut.get('b', NOW)).toBeUndefined();
    sut.set('b', grant(), sut.generation, NOW);
    expect(sut.get('b', NOW)).toBeDefined();
  });

  it(`holds at most ${TOKEN_CACHE_MAX_ENTRIES} grants, dropping the oldest`, () => {
    const sut = cacheWith(60_000);
    for (let i = 0; i <= TOKEN_CACHE_MAX_ENTRIES; i++) sut.set(`h${i}`, grant(), sut.generation, NOW);
    expect(sut.size).toBe(TOKEN_CACHE_MAX_ENTRIES);
    expect(sut.get('h0', NOW)).toBeUndefined();
    expect(sut.get(`h${TOKEN_CACHE_MAX_ENTRIES}`, NOW)).toBeDefined();
  });
});

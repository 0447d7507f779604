import fc from 'fast-check';
import { formatScope, inDisplayOrder, isKnownScope, isSubset, KNOWN_SCOPES, parseScope } from './scopes';

describe('scopes (RFC 6749 §3.3)', () => {
  it('parses a space-separated list into a sorted set', () => {
    expect(parseScope('read:startups  profile read:startups')).toEqual(['profile', 'read:startups']);
    expect(parseScope('')).toEqual([]);
  });

  it('is case-sensitive and knows only its own scopes', () => {
    expect(isKnownScope('profile')).toBe(true);
    expect(isKnownScope('openid')).toBe(true);
    expect(isKnownScope('email')).toBe(true);
    expect(isKnownScope('OpenID')).toBe(false);
    expect(isKnownScope('Profile')).toBe(false);
    expect(isKnownScope('toString')).toBe(false);
  });

  it('formats one spelling per set and compares sets', () => {
    expect(formatScope(['read:startups', 'profile', 'profile'])).toBe('profile read:startups');
    expect(isSubset(['profile'], ['profile', 'read:startups'])).toBe(true);
    expect(isSubset(['profile', 'admin'], ['profile'])).toBe(false);
  });

  it('lists a scope set for people in one order on every page, whatever order it came in', () => {
    expect(inDisplayOrder(['read:startups', 'email', 'profile', 'openid'])).toEqual(['openid', 'profile', 'email', 'read:startups']);
    expect(inDisplayOrder(['zz:other', 'profile', 'aa:other'])).toEqual(['profile', 'aa:other', 'zz:other']);
    fc.assert(
      fc.property(fc.shuffledSubarray([...KNOWN_SCOPES, 'x:unknown']), fc.shuffledSubarray([...KNOWN_SCOPES, 'x:unknown']), (a, b) => {
        const sameSet = new Set(a).size === new Set(b).size && a.every((s) => b.includes(s));
        // A permutation of its input, the same for any order of one set, and known scopes in their own order.
        expect([...inDisplayOrder(a)].sort()).toEqual([...a].sort());
        if (sameSet) expect(inDisplayOrder(a)).toEqual(inDisplayOrder(b));
        const known = inDisplayOrder(a).filter(isKnownScope);
        expect(known).toEqual(KNOWN_SCOPES.filter((s) => known.includes(s)));
      }),
    );
  });
});

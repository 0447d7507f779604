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
    // Any scope set, in any two orders of its own: the same list, a permutation of the set, the known
    // scopes in the catalogue's order and before any unknown one.
    const someOrder = (set: string[]) => fc.shuffledSubarray(set, { minLength: set.length, maxLength: set.length });
    fc.assert(
      fc.property(
        fc.shuffledSubarray([...KNOWN_SCOPES, 'x:unknown', 'a:unknown']).chain((set) => fc.tuple(someOrder(set), someOrder(set))),
        ([a, b]) => {
          const shown = inDisplayOrder(a);
          expect(shown).toEqual(inDisplayOrder(b));
          expect([...shown].sort()).toEqual([...a].sort());
          const known = shown.filter(isKnownScope);
          expect(known).toEqual(KNOWN_SCOPES.filter((s) => known.includes(s)));
          expect(shown.slice(0, known.length)).toEqual(known);
        },
      ),
    );
  });
});

import { formatScope, isKnownScope, isSubset, parseScope } from './scopes';

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
});

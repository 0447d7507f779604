import { userClaims } from './user-claims';

describe('userClaims', () => {
  const user = { id: 7, name: 'Ada', email: 'ada@example.com', emailVerified: true };

  it('always states sub, as a string', () => {
    expect(userClaims(user, ['openid'])).toEqual({ sub: '7' });
  });

  it('adds name for profile and email with a boolean email_verified for email', () => {
    expect(userClaims(user, ['openid', 'profile'])).toEqual({ sub: '7', name: 'Ada' });
    expect(userClaims(user, ['openid', 'email'])).toEqual({ sub: '7', email: 'ada@example.com', email_verified: true });
    expect(userClaims({ ...user, emailVerified: false }, ['openid', 'email'])).toEqual({ sub: '7', email: 'ada@example.com', email_verified: false });
  });

  it('releases nothing for scopes that describe no user', () => {
    expect(userClaims(user, ['openid', 'read:startups'])).toEqual({ sub: '7' });
  });
});

import { Strategy as HttpBearerStrategy } from 'passport-http-bearer';
import { AccessTokenLookupService } from '../access-token-lookup.service';
import { AccessTokenGrant } from '../principal';
import { BearerTokenStrategy } from './bearer-token.strategy';

const GOOD = 'sp_at_' + 'A'.repeat(43);
const grant: AccessTokenGrant = { tokenId: 1, userId: 2, clientId: 3, scopes: ['profile'], expiresAt: Date.now() + 1000 };

describe('BearerTokenStrategy', () => {
  const find = jest.fn(async (token: string) => (token === GOOD ? grant : null));
  const sut = new BearerTokenStrategy({ find } as unknown as AccessTokenLookupService);

  beforeEach(() => find.mockClear());

  it('accepts a known token from the Authorization header, scheme in any case', async () => {
    expect(await sut.authenticate(`Bearer ${GOOD}`)).toEqual({ kind: 'valid', grant });
    expect(await sut.authenticate(`bEaReR ${GOOD}`)).toEqual({ kind: 'valid', grant });
  });

  it.each([undefined, '', `Basic ${Buffer.from('a:b').toString('base64')}`, 'Basic', 'Digest a=b'])(
    'treats %j as no Bearer credentials: the bare challenge',
    async (authorization) => {
      expect(await sut.authenticate(authorization)).toEqual({ kind: 'missing', challenge: 'Bearer realm="api"' });
      expect(find).not.toHaveBeenCalled();
    },
  );

  it.each(['Bearer', 'Bearer a b', `Bearer  ${GOOD}`, 'Bearer sp_at_unknown'])('answers %j invalid_token', async (authorization) => {
    expect(await sut.authenticate(authorization)).toEqual({ kind: 'invalid', challenge: 'Bearer realm="api", error="invalid_token"' });
  });

  it('hands the library a request with the header alone, so it cannot read access_token from query or body (RFC 6750 §2.1 only)', async () => {
    const spy = jest.spyOn(HttpBearerStrategy.prototype, 'authenticate');
    try {
      await sut.authenticate(`Bearer ${GOOD}`);
      expect(spy).toHaveBeenCalledWith({ headers: { authorization: `Bearer ${GOOD}` } }, {});
    } finally {
      spy.mockRestore();
    }
  });

  it('passes lookup failures on instead of answering 401', async () => {
    const failing = new BearerTokenStrategy({ find: async () => Promise.reject(new Error('db down')) } as unknown as AccessTokenLookupService);
    await expect(failing.authenticate(`Bearer ${GOOD}`)).rejects.toThrow('db down');
  });
});

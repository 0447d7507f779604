import { assertValidClientName, assertValidRedirectUri, ClientValidationError, parseClientScopes } from './client-rules';

describe('client registration rules', () => {
  describe('assertValidRedirectUri', () => {
    const publicUrl = 'https://auth.example';

    it.each([
      'https://app.example/cb',
      'https://app.example/cb?tenant=a%20b',
      'http://localhost:3000/cb',
      'http://127.0.0.1:8080/cb',
      'http://[::1]:8080/cb',
    ])('accepts %s', (uri) => {
      expect(() => assertValidRedirectUri(uri, publicUrl)).not.toThrow();
    });

    it('accepts plain http on the service\'s own origin when PUBLIC_URL is plain http', () => {
      expect(() => assertValidRedirectUri('http://dev.internal:3000/docs/oauth2-redirect.html', 'http://dev.internal:3000')).not.toThrow();
      expect(() => assertValidRedirectUri('http://other.internal:3000/cb', 'http://dev.internal:3000')).toThrow(ClientValidationError);
    });

    it.each([
      ['/cb', 'not an absolute URL'],
      ['https://app.example/cb#frag', 'must not contain a fragment'],
      ['https://app.example/cb#', 'must not contain a fragment'],
      ['https://user:pw@app.example/cb', 'must not contain credentials'],
      ['http://app.example/cb', 'http is allowed only for localhost'],
      ['com.example.app:/cb', 'the scheme must be https'],
      ['javascript:alert(1)', 'the scheme must be https'],
      [`https://app.example/${'a'.repeat(2000)}`, 'longer than 2000 characters'],
      ['https://app.example/a b', 'must not contain spaces or control characters'],
      ['https://app.example/\u0000', 'must not contain spaces or control characters'],
    ])('refuses %j (%s), naming the rule it broke', (uri, message) => {
      expect(() => assertValidRedirectUri(uri, publicUrl)).toThrow(message);
      expect(() => assertValidRedirectUri(uri, publicUrl)).toThrow(expect.objectContaining({ rule: expect.stringMatching(/^redirect_uri_/) }));
    });
  });

  describe('parseClientScopes', () => {
    it('sorts, folds repeats and accepts commas', () => {
      expect(parseClientScopes('read:startups profile profile')).toEqual(['profile', 'read:startups']);
      expect(parseClientScopes('profile,read:startups')).toEqual(['profile', 'read:startups']);
    });

    it('refuses unknown and empty scope lists', () => {
      expect(() => parseClientScopes('profile admin')).toThrow('unknown scope "admin"');
      expect(() => parseClientScopes('  ')).toThrow('give at least one');
    });
  });

  it('trims names and refuses empty or over-long ones', () => {
    expect(assertValidClientName('  Acme  ')).toBe('Acme');
    expect(() => assertValidClientName(' ')).toThrow(ClientValidationError);
    expect(() => assertValidClientName('x'.repeat(201))).toThrow(ClientValidationError);
    expect(() => assertValidClientName('Acme\u0007')).toThrow('no control characters');
  });
});

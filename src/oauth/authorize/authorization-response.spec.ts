import { parseQueryParameters } from '../../common/http/query-parameters';
import { authorizationResponseUrl } from './authorization-response';

describe('authorizationResponseUrl', () => {
  it('adds the parameters in order, iss last', () => {
    expect(authorizationResponseUrl('https://app.example/cb', { code: 'c', state: 's', iss: 'https://as.example' })).toBe(
      'https://app.example/cb?code=c&state=s&iss=https%3A%2F%2Fas.example',
    );
  });

  it('keeps the registered query exactly as it is', () => {
    expect(authorizationResponseUrl('https://app.example/cb?tenant=a%20b&x=1', { code: 'c' })).toBe('https://app.example/cb?tenant=a%20b&x=1&code=c');
  });

  it('leaves out unset values and encodes the state exactly as sent', () => {
    const url = new URL(authorizationResponseUrl('http://127.0.0.1:8080/cb', { error: 'access_denied', state: 'a b&c=d/é', iss: 'x' }));
    expect(url.searchParams.get('state')).toBe('a b&c=d/é');
    expect([...url.searchParams.keys()]).toEqual(['error', 'state', 'iss']);
  });
});

describe('parseQueryParameters', () => {
  it('reports repeated parameters, empty ones included', () => {
    const { values, repeated } = parseQueryParameters('a=1&b=2&a=3&c=&c=');
    expect(values.get('a')).toBe('1');
    expect([...repeated].sort()).toEqual(['a', 'c']);
  });

  it('treats a parameter without a value as omitted', () => {
    const { values } = parseQueryParameters('scope=&state=x');
    expect(values.has('scope')).toBe(false);
    expect(values.get('state')).toBe('x');
  });

  it('decodes plus signs and percent escapes', () => {
    expect(parseQueryParameters('scope=profile+read%3Astartups').values.get('scope')).toBe('profile read:startups');
  });
});

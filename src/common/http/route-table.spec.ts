import { RouteTable } from './route-table';
import { ErrorFormat } from '../errors/error-format';

describe('RouteTable', () => {
  const sut = new RouteTable();
  sut.add(['GET', 'HEAD'], '/api/public/v1/industries/:id');
  sut.add('POST', '/oauth/token');
  sut.add('OPTIONS', '*');

  it('lists the methods of a known path, parameters included', () => {
    expect(sut.allowedMethods('/api/public/v1/industries/7')).toEqual(['GET', 'HEAD']);
    expect(sut.allowedMethods('/oauth/token')).toEqual(['POST']);
  });

  it('knows nothing of unknown paths, despite a catch-all route', () => {
    expect(sut.allowedMethods('/elsewhere')).toEqual([]);
  });
});

describe('RouteTable error formats', () => {
  const json: ErrorFormat = { send: () => undefined, unparsedBody: () => ({}) };
  const sut = new RouteTable();
  sut.add(['GET', 'HEAD'], '/api/public/v1/industries/:id');
  sut.add('POST', '/oauth/token');
  sut.useErrorFormats(new Map([['POST /oauth/token', json]]));

  it('gives the format of the route a request reached, and none (the envelope) for routes without one', () => {
    expect(sut.errorFormatOf('POST', '/oauth/token', '/oauth/token')).toBe(json);
    expect(sut.errorFormatOf('GET', '/api/public/v1/industries/:id', '/api/public/v1/industries/7')).toBeUndefined();
  });

  it('gives the format of the routes at a path that no route of the method serves (405, a body that failed to parse)', () => {
    expect(sut.errorFormatOf('GET', undefined, '/oauth/token')).toBe(json);
    expect(sut.errorFormatOf('GET', undefined, '/oauth/token/extra')).toBeUndefined();
    expect(sut.errorFormatOf('GET', undefined, '/%E0%A4%A')).toBeUndefined();
  });

  it('names a parameter route also for a parameter the router refused (too long, or badly percent-encoded)', () => {
    const registration = new RouteTable();
    registration.add(['GET', 'HEAD', 'PUT', 'DELETE'], '/oauth/register/:client_id');
    registration.useErrorFormats(new Map([['GET /oauth/register/:client_id', json]]));
    expect(registration.errorFormatOf('GET', undefined, `/oauth/register/${'a'.repeat(5000)}`)).toBe(json);
    expect(registration.errorFormatOf('GET', undefined, '/oauth/register/%FF%G1')).toBe(json);
    expect(registration.errorFormatOf('GET', undefined, '/oauth/register/%FF/more')).toBeUndefined();
  });

  it('takes only a path that spells the route as naming it, not one the router forgives', () => {
    for (const path of ['/oauth/token;x', '/oauth/token#x', '/oauth/t%6Fken']) {
      expect([path, sut.errorFormatOf('POST', '/oauth/token', path)]).toEqual([path, undefined]);
      expect([path, sut.errorFormatOf('GET', undefined, path)]).toEqual([path, undefined]);
    }
  });
});

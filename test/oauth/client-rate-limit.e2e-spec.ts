import { http } from '../helpers/http';
import { basicAuth, registerClient } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/** RATE_LIMIT_CLIENT per authenticated client on the client-authenticated OAuth endpoints (docs/using-the-api.md). */
describe('the per-client rate limit on /oauth/token, /oauth/revoke and /oauth/introspect', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_CLIENT: '3' });
  });
  afterAll(() => t.close());

  it('counts each authenticated client across the three endpoints and answers 429 in the RFC body', async () => {
    const [busy, quiet] = [await registerClient(t.app), await registerClient(t.app)];
    const post = (path: string, client: typeof busy, body: string) =>
      http(t.url, path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(client.clientId, client.clientSecret!) }, body });

    const first = await post('/oauth/introspect', busy, 'token=x');
    expect(first.status).toBe(200);
    expect([first.headers.get('ratelimit-limit'), first.headers.get('ratelimit-remaining')]).toEqual(['3', '2']);
    expect((await post('/oauth/revoke', busy, 'token=x')).headers.get('ratelimit-remaining')).toBe('1');
    const third = await post('/oauth/token', busy, 'grant_type=refresh_token&refresh_token=x');
    expect(third.status).toBe(400);
    expect(third.headers.get('ratelimit-remaining')).toBe('0');

    const limited = await post('/oauth/token', busy, 'grant_type=refresh_token&refresh_token=x');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'invalid_request', error_description: 'Too many requests; try again later.' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('cache-control')).toBe('no-store');

    // Another client has its own budget; a failed client authentication counts for no client.
    expect((await post('/oauth/introspect', quiet, 'token=x')).status).toBe(200);
    const unauthenticated = await post('/oauth/introspect', { ...busy, clientSecret: 'wrong' }, 'token=x');
    expect(unauthenticated.status).toBe(401);
  });

  it('counts client_credentials grants and the Bearer calls of their tokens on the same counter', async () => {
    const service = await registerClient(t.app, { scopes: ['read:startups'] });
    const grant = () =>
      http(t.url, '/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(service.clientId, service.clientSecret!) },
        body: 'grant_type=client_credentials',
      });
    const issued = await grant();
    expect([issued.status, issued.headers.get('ratelimit-remaining')]).toEqual([200, '2']);
    const read = await http(t.url, '/api/public/v1/startups', { headers: { authorization: `Bearer ${issued.body.access_token}` } });
    expect([read.status, read.headers.get('ratelimit-remaining')]).toEqual([200, '1']);
    expect((await grant()).status).toBe(200);
    const limited = await grant();
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'invalid_request', error_description: 'Too many requests; try again later.' });
  });
});

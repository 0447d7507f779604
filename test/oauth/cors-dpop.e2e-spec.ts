import { ShutdownState } from '../../src/common/http/shutdown-state';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * CORS for DPoP (RFC 9449 §4.1, docs/integrate-with-oauth.md): a browser application sends its proofs
 * in the `DPoP` header, so the preflight of every endpoint it calls with one allows that header, and
 * `DPoP-Nonce` (RFC 9449 §8) is readable by its scripts.
 */
describe('CORS allows the DPoP header', () => {
  let t: TestApp;
  const origin = 'https://spa.example';

  beforeAll(async () => {
    t = await startTestApp({ CORS_ORIGINS: `${origin},https://other.example` });
  });
  afterAll(() => t.close());

  it.each([
    ['POST', '/oauth/token'],
    ['POST', '/oauth/revoke'],
    ['POST', '/oauth/par'],
    ['POST', '/oauth/device_authorization'],
    ['GET', '/oauth/userinfo'],
    ['POST', '/oauth/userinfo'],
    ['GET', '/api/public/v1/me'],
    ['GET', '/api/public/v1/startups'],
  ])('a preflight of %s %s allows DPoP', async (method, path) => {
    const res = await fetch(`${t.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'dpop,authorization,content-type' },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    // Like every answer, a preflight's carries its request id (docs/using-the-api.md, Envelopes) and the
    // hardening headers of every answer.
    expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());
    expect(allowed).toEqual(expect.arrayContaining(['dpop', 'authorization', 'content-type']));
  });

  it('keeps a request in flight counted while a preflight comes and goes: SIGTERM still waits for it', async () => {
    const shutdown = t.app.get(ShutdownState);
    const inFlight = () => (shutdown as unknown as { inFlight: number }).inFlight;
    shutdown.requestStarted(); // a request still being answered
    try {
      const before = inFlight();
      expect(before).toBeGreaterThanOrEqual(1); // the count is read, not a field that is no longer there
      const res = await fetch(`${t.url}/oauth/token`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      expect(res.status).toBe(204);
      expect(inFlight()).toBe(before);
    } finally {
      shutdown.requestFinished();
    }
  });

  it('answers an OPTIONS without the preflight headers as a preflight (204 and what is allowed), never with a plain-text 400', async () => {
    for (const path of ['/api/public/v1/industries', '/api/public/v1/nowhere', '/oauth/token']) {
      const res = await fetch(`${t.url}${path}`, { method: 'OPTIONS' });
      expect([path, res.status, await res.text()]).toEqual([path, 204, '']);
      expect(res.headers.get('access-control-allow-methods')).toContain('GET');
    }
  });

  it('exposes DPoP-Nonce and WWW-Authenticate on the answer itself', async () => {
    const res = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&client_id=nobody&refresh_token=x',
    });
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());
    expect(exposed).toEqual(expect.arrayContaining(['dpop-nonce', 'www-authenticate']));
  });
});

import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { basicAuth } from '../helpers/oauth';
import { provision } from '../helpers/flows';
import { ServiceProcess, startService, waitForOutput } from '../helpers/processes';
import { freePort, isolatedStorage } from '../helpers/test-app';

/**
 * Secrets in logs (SECURITY.md): `login_hint`, `id_token_hint`, `nonce`, `state`, `code` and the other
 * sensitive parameters never reach a log line, whatever their value (URL-special characters,
 * percent-escapes) and however the parameter is spelt (its name percent-encoded, repeated, in a form
 * body). The built service runs with its output captured; random values, each carrying a unique marker,
 * are sent to /oauth/authorize, /oauth/logout and /oauth/token, and then searched for in every line.
 */
describe('sensitive request parameters never reach a log line', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let service: ServiceProcess;
  let client: { clientId: string; clientSecret: string; redirectUri: string };

  beforeAll(async () => {
    storage = await isolatedStorage();
    service = await startService({ ...storage.env, LOG_LEVEL: 'trace', RATE_LIMIT_ANONYMOUS: '100000' }, await freePort());
    client = (await provision(storage.env)).client;
  }, 300_000);
  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
    await storage?.drop();
  });

  /** Characters that break naive parsers: separators, escapes, quotes, spaces, non-ASCII. */
  const special = fc.constantFrom('&', '=', '?', '#', '%', '%25', '%26', '%3D', '+', ' ', '/', ';', '"', "'", '<', '>', '\\', 'é', '😀', '.', '-', '_', '~');
  const piece = fc.array(fc.oneof(special, fc.string({ maxLength: 6 })), { maxLength: 6 }).map((parts) => parts.join(''));
  /** A value with a unique marker inside, so any copy of it in a log line is found. */
  const secretValue = fc.tuple(piece, piece).map(([before, after]) => `${before}LEAK${randomBytes(8).toString('hex')}${after}`);
  /** How the parameter's name is written: plainly, percent-encoded, or in another case. */
  const spelling = fc.constantFrom('plain', 'encoded', 'upper');
  const nameAs = (name: string, how: string) =>
    how === 'encoded' ? [...name].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('') : how === 'upper' ? name.toUpperCase() : name;

  const sent: string[] = [];

  it('for random login_hint, id_token_hint, nonce, state and code values, sent every way', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ loginHint: secretValue, idTokenHint: secretValue, nonce: secretValue, state: secretValue, code: secretValue, how: spelling, repeat: fc.boolean() }),
        async (v) => {
          sent.push(v.loginHint, v.idTokenHint, v.nonce, v.state, v.code);
          const pair = (name: string, value: string) => {
            const one = `${nameAs(name, v.how)}=${encodeURIComponent(value)}`;
            return v.repeat ? `${one}&${name}=${encodeURIComponent(value)}` : one;
          };
          const authorize = [
            `response_type=code&client_id=${client.clientId}&redirect_uri=${encodeURIComponent(client.redirectUri)}&scope=openid`,
            pair('login_hint', v.loginHint),
            pair('nonce', v.nonce),
            pair('state', v.state),
          ].join('&');
          const logout = [pair('id_token_hint', v.idTokenHint), pair('state', v.state), `client_id=${client.clientId}`].join('&');
          // The same values raw (unencoded where the URL allows it): fetch encodes only what it must.
          const rawLogout = `id_token_hint=${v.idTokenHint.replace(/[&#%]/g, '')}&nonce=${v.nonce.replace(/[&#%]/g, '')}`;
          const responses = await Promise.all([
            fetch(`${service.url}/oauth/authorize?${authorize}`, { redirect: 'manual' }),
            fetch(`${service.url}/oauth/logout?${logout}`, { redirect: 'manual' }),
            fetch(`${service.url}/oauth/logout?${rawLogout}`, { redirect: 'manual' }),
            fetch(`${service.url}/oauth/token`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(client.clientId, client.clientSecret) },
              body: `grant_type=authorization_code&${pair('code', v.code)}&redirect_uri=${encodeURIComponent(client.redirectUri)}`,
            }),
          ]);
          for (const res of responses) {
            await res.arrayBuffer();
            expect(res.status).toBeLessThan(500);
          }
        },
      ),
      { numRuns: 60 },
    );

    // Every line of those requests is out once the line of a last request is.
    const flush = `flush${randomBytes(6).toString('hex')}`;
    await (await fetch(`${service.url}/oauth/logout?client_id=${flush}`)).arrayBuffer();
    await waitForOutput(service, flush);
    const lines = service.output().split('\n');
    expect(lines.filter((line) => line.includes('"msg":"request completed"')).length).toBeGreaterThan(60 * 4);
    expect(lines.some((line) => line.includes('[REDACTED]'))).toBe(true);

    for (const value of sent) {
      const marker = /LEAK[0-9a-f]{16}/.exec(value)![0];
      const forms = [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1), marker];
      const leaks = lines.filter((line) => forms.some((form) => line.includes(form)));
      expect([value, leaks]).toEqual([value, []]);
    }
  }, 180_000);
});

import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { assertValidClientName, isValidRedirectUri } from '../../src/clients/client-rules';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

const FIELDS = ['client_name', 'redirect_uris', 'application_type', 'token_endpoint_auth_method', 'grant_types', 'response_types', 'scope', 'client_uri', 'logo_uri', 'id_token_signed_response_alg', 'client_id', 'client_secret', 'software_statement', '__proto__', 'constructor'];

const hostileString = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom(
    'Startup Platform',
    'Stаrtup Plаtform',
    'Gооgle',
    'App\u202Egnp.exe',
    'a\u0000b',
    '\u200B',
    ' ',
    '<script>alert(1)</script>',
    "'; DROP TABLE oauth_clients; --",
    'https://agent.example/cb',
    'https://agent.example/cb#frag',
    'https://*.agent.example/cb',
    'https://user:pw@agent.example/cb',
    'http://127.0.0.1:9/cb',
    'http://[::1]/cb',
    'http://localhost/cb',
    'http://agent.example/cb',
    'HTTPS://AGENT.EXAMPLE/cb',
    'https:agent.example/cb',
    'javascript:alert(1)',
    'data:text/html,x',
    'com.example.app:/cb',
    'https://agent.example/a;b',
    'https://xn--rnek-4qa.example/',
    'https://örnek.example/',
    'web',
    'native',
    'none',
    'client_secret_basic',
    'client_secret_post',
    'private_key_jwt',
    'authorization_code',
    'refresh_token',
    'client_credentials',
    'urn:ietf:params:oauth:grant-type:device_code',
    'code',
    'token',
    'openid profile email read:startups',
    'read:startups',
    'admin',
    'RS256',
    'ES256',
    'none',
    'x'.repeat(3000),
  ),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.array(hostileString, { maxLength: 12 }),
  fc.constantFrom(null, true, false, 0, -1, Number.MAX_VALUE, 1.5, {}, [], [null], [1, 2], { a: 1 }),
  fc.integer(),
);
const metadata = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), hostileValue, { maxKeys: 8 });

/**
 * Hostile client metadata at `POST /oauth/register` (SECURITY.md, "Registration flooding"): whatever the
 * body holds, the answer is 201 or an RFC 7591 §3.2.2 error, never a 5xx; a refused body stores nothing,
 * and what is stored follows the rules of every other registration (src/clients/client-rules.ts).
 */
describe('hostile metadata at the registration endpoint', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ REGISTRATION_MAX_PER_HOUR: '1000000' });
  });
  afterAll(() => t.close());

  async function clientRows(): Promise<number> {
    const [row] = await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM oauth_clients');
    return Number(row.n);
  }

  it('never answers 5xx, stores nothing when it refuses, and stores only what the rules allow', async () => {
    await fc.assert(
      fc.asyncProperty(
        metadata,
        // Now and then a body that is valid but for the hostile fields mixed into it.
        fc.boolean(),
        async (fields, withValidBase) => {
          const body = withValidBase ? { client_name: 'Fuzzed Agent', redirect_uris: ['https://agent.example/cb'], ...fields } : fields;
          const text = JSON.stringify(body).replace(/[\uD800-\uDFFF]/g, '\uFFFD');
          const before = await clientRows();
          const res = await http(t.url, '/oauth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
          const where = `${text.slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`;
          expect([where, res.status < 500]).toEqual([where, true]);
          expect([where, res.headers.get('content-type')]).toEqual([where, expect.stringMatching(/^application\/json/)]);
          if (res.status === 201) {
            expect(await clientRows()).toBe(before + 1);
            const registered = res.body;
            for (const uri of registered.redirect_uris) expect([where, isValidRedirectUri(uri, t.url)]).toEqual([where, true]);
            expect([where, assertValidClientName(registered.client_name, 'Startup Platform')]).toEqual([where, registered.client_name]);
            if (registered.application_type === 'web') expect([where, registered.redirect_uris.every((uri: string) => uri.startsWith('https:'))]).toEqual([where, true]);
            expect([where, registered.grant_types]).not.toContain('client_credentials');
          } else {
            expect([where, res.status]).toEqual([where, 400]);
            expect([where, ['invalid_redirect_uri', 'invalid_client_metadata', 'invalid_request']]).toEqual([where, expect.arrayContaining([res.body.error])]);
            expect([where, res.body.error_description]).toEqual([where, expect.stringMatching(/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/)]);
            expect(await clientRows()).toBe(before);
          }
        },
      ),
      { numRuns: 300, endOnFailure: true },
    );
  }, 300_000);
});

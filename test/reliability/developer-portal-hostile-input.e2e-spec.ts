import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '../../src/api-keys/api-keys.service';
import { ClientsService } from '../../src/clients/clients.service';
import { formInputs, signInAt } from '../helpers/account';
import { BrowserResponse, BrowserSession, createSignInUser } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

const PORTAL = '/account/developer';
const LEAKS = [/\n\s+at /, /node_modules/, /QueryFailedError/i, /SQLITE_/, /typeorm/i, /syntax error at or near/i, /\.ts:\d+/, /\/src\//, /pg-pool/i];

/** Strings an attacker types into a form: markup, SQL, NUL and control bytes, huge, look-alike URIs. */
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    "1' OR '1'='1",
    "'; DROP TABLE oauth_clients; --",
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    '\u0000',
    'a\u0000b',
    'tab\there',
    '\r\n',
    '\uD800',
    '__proto__',
    'javascript:alert(1)',
    'https://app.example/cb#frag',
    'http://app.example/cb',
    'https://user:pw@app.example/cb',
    'https://app.example/a b',
    'https://app.example/cb\nhttps://app.example/cb2',
    'https://app.example/<script>',
    'profile',
    'read:startups',
    'profile admin',
    'confidential',
    'public',
    'partner',
  ),
  fc.string({ minLength: 190, maxLength: 210 }),
  fc.string({ minLength: 2000, maxLength: 6000 }),
);
const field = fc.oneof(nasty, fc.array(nasty, { maxLength: 3 }));

/** What a form post can carry: a lone surrogate is not UTF-8, so it arrives as U+FFFD. */
const wellFormed = (value: string) => value.replace(/[\uD800-\uDFFF]/g, '\uFFFD');

/**
 * Hostile input over every form of the developer portal (README.md, Register your application), from a signed-in user with a
 * valid CSRF token, so that each value reaches the rules: whatever is posted, the answer is never a
 * 5xx and never leaks internals or another user's data; a refused form makes nothing and says why in
 * a clear message; an accepted one stores exactly what the rules allow.
 */
describe('hostile input on the developer portal forms', () => {
  let t: TestApp;
  let browser: BrowserSession;
  let userId: number;
  let ownClientId: string;
  let victim: { clientId: string; keyId: number; keyPrefix: string };

  beforeAll(async () => {
    t = await startTestApp({ DEVELOPER_MAX_CLIENTS: '1000', DEVELOPER_MAX_API_KEYS: '1000' });
    const victimUser = await createSignInUser(t.app);
    const victimApp = await t.app.get(ClientsService, { strict: false }).create({
      name: 'Victim app',
      redirectUris: ['https://victim.example/cb'],
      scopes: ['profile'],
      type: 'confidential',
      owner: { userId: victimUser.id, limit: 10 },
    });
    const victimKey = await t.app.get(ApiKeysService, { strict: false }).create({ name: 'Victim key', tier: 'standard', owner: { userId: victimUser.id, limit: 10 } });
    victim = { clientId: victimApp.client.clientId, keyId: victimKey.apiKey.id, keyPrefix: victimKey.apiKey.prefix };

    const user = await createSignInUser(t.app);
    userId = user.id;
    browser = new BrowserSession(t.url);
    await signInAt(browser, PORTAL, user);
    ownClientId = (
      await t.app.get(ClientsService, { strict: false }).create({
        name: 'Own app',
        redirectUris: ['https://own.example/cb'],
        scopes: ['profile'],
        type: 'confidential',
        owner: { userId, limit: 1000 },
      })
    ).client.clientId;
  });
  afterAll(() => t?.close());

  async function snapshot(): Promise<string> {
    const source = t.app.get(DataSource);
    const clients = await source.query('SELECT client_id, name, redirect_uris, scopes, type, secret_hash, owner_id FROM oauth_clients ORDER BY id');
    const keys = await source.query('SELECT id, name, tier, revoked_at, owner_id FROM api_keys ORDER BY id');
    return JSON.stringify({ clients, keys });
  }

  function expectSafe(where: string, res: BrowserResponse, framework = false): void {
    expect([where, res.status < 500]).toEqual([where, true]);
    for (const leak of LEAKS) expect([where, leak.test(res.text)]).toEqual([where, false]);
    // Nothing of another user's, and no markup from the input.
    expect([where, res.text.includes(victim.clientId) || res.text.includes(victim.keyPrefix) || res.text.includes('Victim')]).toEqual([where, false]);
    expect([where, /<script|<img/i.test(res.text)]).toEqual([where, false]);
    if (res.status >= 300 && res.status < 400) expect([where, res.location]).toEqual([where, expect.stringMatching(/^\/account\/developer\?done=[a-z_]+$/)]);
    const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
    if (json && framework) {
      // A path no route of the portal has (the 404 of an unknown path): the usual error envelope.
      expect([where, res.status, JSON.parse(res.text).error.code]).toEqual([where, expect.any(Number), expect.stringMatching(/^[A-Z_]+$/)]);
      expect([where, [400, 404, 414]]).toEqual([where, expect.arrayContaining([res.status])]);
      return;
    }
    if ([400, 403, 409].includes(res.status)) {
      expect([where, res.headers.get('content-type')]).toEqual([where, 'text/html; charset=utf-8']);
      // A clear message: the page says why, and that nothing changed. A redirect URI written in another
      // form ends with the form to write instead, left bare so that it can be copied.
      const alert = /role="alert">([^<]*)</.exec(res.text)?.[1] ?? '';
      // A form the page cannot read at all (a field far past any limit, docs/add-a-module.md "A module with
      // pages") gets the documented page that says so.
      const refusal = res.status === 403 ? /^[A-Z].*\. Nothing was changed\.$/ : /^(Nothing was changed: \S.*\.( Write it as: \S+)?|The request could not be read\.)$/;
      expect([where, alert]).toEqual([where, expect.stringMatching(refusal)]);
    }
  }

  async function post(action: string, fields: Record<string, string | string[]>): Promise<BrowserResponse> {
    const page = await browser.get(PORTAL);
    const clean = Object.fromEntries(
      Object.entries(fields).map(([k, v]) => [k, Array.isArray(v) ? v.map(wellFormed) : wellFormed(v)]),
    );
    const posted = await browser.post(action, { ...clean, ...formInputs(page.text, `${PORTAL}/api-keys`) });
    // A post that made a credential redirects to the page that shows it once (Post/Redirect/Get), with
    // nothing in its own body: followed as a browser would, so the checks read the page that shows it.
    if (posted.status !== 303 || posted.location !== `${PORTAL}#shown-title`) return posted;
    expect([action, posted.text]).toEqual([action, '']);
    return browser.get(posted.location);
  }

  it('registers an application only from values the CLI would accept', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ name: field, redirect_uris: field, client_type: field, scope: field }, { requiredKeys: [] }),
        async (fields) => {
          const before = await snapshot();
          const res = await post(`${PORTAL}/applications`, fields);
          const where = `register ${JSON.stringify(fields).slice(0, 300)} → ${res.status}`;
          expectSafe(where, res);
          if (res.status === 200) {
            const clientId = /data-credential="client_id">([^<]+)</.exec(res.text)![1];
            const made = (await t.app.get(ClientsService, { strict: false }).findByClientId(clientId))!;
            expect([where, made.ownerId, made.name.length > 0 && made.name.length <= 200]).toEqual([where, userId, true]);
            expect([where, made.redirectUris.every((uri) => uri.startsWith('https://') || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(uri))]).toEqual([where, true]);
            await t.app.get(ClientsService, { strict: false }).delete(clientId);
          } else {
            expect([where, [400, 409]]).toEqual([where, expect.arrayContaining([res.status])]);
            expect([where, await snapshot()]).toEqual([where, before]);
          }
        },
      ),
      { numRuns: 150, endOnFailure: true },
    );
  }, 120_000);

  it('edits the user\'s own application only into values the rules accept', async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ name: field, redirect_uris: field }, { requiredKeys: [] }), async (fields) => {
        const before = await snapshot();
        const res = await post(`${PORTAL}/applications/${ownClientId}/edit`, fields);
        const where = `edit ${JSON.stringify(fields).slice(0, 300)} → ${res.status}`;
        expectSafe(where, res);
        if (res.status !== 303) {
          expect([where, res.status]).toEqual([where, 400]);
          expect([where, await snapshot()]).toEqual([where, before]);
        }
      }),
      { numRuns: 100, endOnFailure: true },
    );
  }, 120_000);

  it('creates an API key only with a clean name, and always a standard one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ name: field, tier: field }, { requiredKeys: [] }), async (fields) => {
        const before = await snapshot();
        const res = await post(`${PORTAL}/api-keys`, fields);
        const where = `api key ${JSON.stringify(fields).slice(0, 300)} → ${res.status}`;
        expectSafe(where, res);
        if (res.status === 200) {
          const keys = await t.app.get(ApiKeysService, { strict: false }).listOwnedBy(userId);
          const made = keys[keys.length - 1];
          expect([where, made.tier, made.name]).toEqual([where, 'standard', wellFormed([fields.name].flat()[0] ?? '').trim()]);
          await t.app.get(ApiKeysService, { strict: false }).revoke(made.id);
        } else {
          expect([where, res.status]).toEqual([where, 400]);
          expect([where, await snapshot()]).toEqual([where, before]);
        }
      }),
      { numRuns: 100, endOnFailure: true },
    );
  }, 120_000);

  it('answers an id longer than the router takes with the page error in the browser\'s language, at once, on every action', async () => {
    const long = 'a'.repeat(1000);
    const paths = [`${PORTAL}/applications/${long}/rotate-secret`, `${PORTAL}/applications/${long}/edit`, `${PORTAL}/applications/${long}/delete`, `${PORTAL}/api-keys/${long}/revoke`];
    for (const path of paths) {
      const before = await snapshot();
      const res = await post(path, {});
      const where = `${path.slice(0, 80)} → ${res.status} ${res.text.slice(0, 200)}`;
      expectSafe(where, res, true);
      // Refused by the router before any guard: the page error of the portal's routes, not the API's JSON.
      expect([where, res.status, res.headers.get('content-type'), res.headers.get('content-language')]).toEqual([where, 400, 'text/html; charset=utf-8', 'en']);
      expect([where, res.text]).toEqual([where, expect.stringContaining('The request could not be read.')]);
      expect([where, await snapshot()]).toEqual([where, before]);
    }
    const turkish = await new BrowserSession(t.url, 'tr').post(paths[3], {});
    expect([turkish.status, turkish.headers.get('content-language'), turkish.text]).toEqual([400, 'tr', expect.stringContaining('İstek okunamadı.')]);
  });

  it('answers 403 and changes nothing for any id that is not the user\'s', async () => {
    const id = fc.oneof(nasty, fc.constantFrom(victim.clientId, String(victim.keyId), '0', '-1', '1e3', '999999999999999999999'));
    await fc.assert(
      fc.asyncProperty(id, fc.constantFrom('rotate-secret', 'edit', 'delete', 'revoke'), fc.record({ name: field, redirect_uris: field }, { requiredKeys: [] }), async (target, action, fields) => {
        const before = await snapshot();
        const encoded = encodeURIComponent(wellFormed(target)) || 'x';
        const path = action === 'revoke' ? `${PORTAL}/api-keys/${encoded}/revoke` : `${PORTAL}/applications/${encoded}/${action}`;
        const res = await post(path, fields);
        const where = `${path.slice(0, 200)} → ${res.status} ${res.text.slice(0, 200)}`;
        expectSafe(where, res, true);
        // Not the user's: 403 (400 or 404 where the path is no route: `..`, an over-long id). The one exception
        // is an id that happens to name one of the user's own keys, all revoked by now: that answers 303
        // and changes nothing.
        const ownKeys = (await t.app.get(ApiKeysService, { strict: false }).listOwnedBy(userId)).map((k) => String(k.id));
        const ownRevoked = action === 'revoke' && res.status === 303 && ownKeys.includes(target);
        expect([where, ownRevoked || [400, 403, 404].includes(res.status)]).toEqual([where, true]);
        expect([where, await snapshot()]).toEqual([where, before]);
      }),
      { numRuns: 150, endOnFailure: true },
    );
  }, 120_000);
});

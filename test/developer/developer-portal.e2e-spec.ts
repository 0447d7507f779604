import { SecurityEventsService } from '../../src/security-events/security-events.service';
import { ApiKeysService } from '../../src/api-keys/api-keys.service';
import { ClientsService } from '../../src/clients/clients.service';
import { formInputs, signInAt } from '../helpers/account';
import { eventually } from '../helpers/eventually';
import { http } from '../helpers/http';
import { basicAuth, BrowserResponse, BrowserSession, createSignInUser, OAuthTestUser } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';
import { bearer, issueTestToken } from '../helpers/tokens';

const PORTAL = '/account/developer';
/** Where a post that made a credential redirects to: the portal, scrolled to the credential shown once. */
const SHOWN = `${PORTAL}#shown-title`;

/** The text of the element carrying `data-credential="<name>"`, or undefined. */
function credential(html: string, name: string): string | undefined {
  return new RegExp(`data-credential="${name}">([^<]*)<`).exec(html)?.[1];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The client ids listed on the portal page, in order. */
function listedClientIds(html: string): string[] {
  return [...html.matchAll(/action="\/account\/developer\/applications\/([^/"]+)\/edit"/g)].map((m) => decodeURIComponent(m[1]));
}

/** The developer portal over HTTP, as a browser with JavaScript off uses it (README.md, Register your application). */
describe('developer portal pages (README.md, Register your application)', () => {
  let t: TestApp;
  let events: SecurityEventsService;

  beforeAll(async () => {
    t = await startTestApp({ DEVELOPER_MAX_CLIENTS: '3', DEVELOPER_MAX_API_KEYS: '2' });
    events = t.app.get(SecurityEventsService, { strict: false });
  });
  afterAll(() => t?.close());

  async function signedIn(user?: OAuthTestUser): Promise<{ user: OAuthTestUser; browser: BrowserSession; page: BrowserResponse }> {
    const who = user ?? (await createSignInUser(t.app));
    const browser = new BrowserSession(t.url);
    const page = await signInAt(browser, PORTAL, who);
    expect(page.status).toBe(200);
    return { user: who, browser, page };
  }

  /**
   * Posts a form of the page as the user would: its hidden inputs (CSRF token) plus the fields. A post
   * that made a credential answers with a redirect to the page that shows it (Post/Redirect/Get), which is
   * followed as a browser would: the result is that page.
   */
  async function submit(browser: BrowserSession, action: string, fields: Record<string, string | string[]> = {}): Promise<BrowserResponse> {
    const page = await browser.get(PORTAL);
    return shownAfter(browser, await browser.post(action, { ...formInputs(page.text, action), ...fields }));
  }

  async function shownAfter(browser: BrowserSession, posted: BrowserResponse): Promise<BrowserResponse> {
    if (posted.status !== 303 || posted.location !== SHOWN) return posted;
    expect(posted.text).toBe('');
    return browser.get(posted.location);
  }

  const register = (browser: BrowserSession, fields: Partial<Record<'name' | 'redirect_uris' | 'client_type', string>> & { scope?: string | string[] } = {}) =>
    submit(browser, `${PORTAL}/applications`, {
      name: 'Weather app',
      redirect_uris: 'https://weather.example/cb\r\n\r\n  http://127.0.0.1:8080/cb  ',
      client_type: 'confidential',
      scope: ['profile', 'read:startups'],
      ...fields,
    });

  const introspectWith = (clientId: string, secret: string) =>
    http(t.url, '/oauth/introspect', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(clientId, secret) },
      body: 'token=unknown',
    });

  it('is reached through the one sign-in page, which returns to it', async () => {
    const anonymous = new BrowserSession(t.url);
    const asked = await anonymous.get(PORTAL);
    expect(asked.status).toBe(303);
    expect(asked.location).toBe('/oauth/sign-in?return_to=%2Faccount%2Fdeveloper');
    const { page } = await signedIn();
    expect(page.text).toContain('<h1>Developer portal</h1>');
    expect(page.text).toContain('aria-current="page">Developer portal</a>');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('speaks Turkish by default', async () => {
    const user = await createSignInUser(t.app);
    const browser = new BrowserSession(t.url, 'tr');
    const page = await signInAt(browser, PORTAL, user);
    expect(page.text).toContain('<html lang="tr">');
    expect(page.text).toContain('<h1>Geliştirici portalı</h1>');
    expect(page.text).toContain('Uygulama kaydet');
  });

  it('registers a confidential application and shows its credentials once; the secret works', async () => {
    const { user, browser } = await signedIn();
    const made = await register(browser);
    expect(made.status).toBe(200);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const clientId = credential(made.text, 'client_id')!;
    const secret = credential(made.text, 'client_secret')!;
    expect(clientId).toMatch(/^sp_client_/);
    expect(secret).toMatch(/^sp_cs_/);
    const client = await t.app.get(ClientsService, { strict: false }).findByClientId(clientId);
    expect(client).toMatchObject({
      name: 'Weather app',
      type: 'confidential',
      redirectUris: ['https://weather.example/cb', 'http://127.0.0.1:8080/cb'],
      scopes: ['profile', 'read:startups'],
      ownerId: user.id,
    });
    expect((await introspectWith(clientId, secret)).status).toBe(200);

    const again = await browser.get(PORTAL);
    expect(listedClientIds(again.text)).toEqual([clientId]);
    expect(again.text).not.toContain(secret);
    expect(credential(again.text, 'client_secret')).toBeUndefined();
    expect((await events.recent(user.id))[0]).toMatchObject({ type: 'client_registered', details: { clientId } });
  });

  it('registers an application unverified, says what that means for its users, and shows it verified once the operator vouches for it', async () => {
    const { user, browser } = await signedIn();
    const clientId = credential((await register(browser)).text, 'client_id')!;
    const client = await t.app.get(ClientsService, { strict: false }).findByClientId(clientId);
    expect(client).toMatchObject({ ownerId: user.id, verified: false });

    const page = (await browser.get(PORTAL)).text;
    expect(page).toContain('<dt>Verification</dt><dd data-verified="false">Not verified by the operator (unverified)');
    expect(page).toContain('Your users see a warning on its consent page');
    const tr = new BrowserSession(t.url, 'tr');
    for (const [name, value] of browser.cookies) tr.cookies.set(name, value);
    expect((await tr.get(PORTAL)).text).toContain('İşletmeci tarafından doğrulanmamış');

    await t.app.get(ClientsService, { strict: false }).setVerified(clientId, true);
    const verified = (await browser.get(PORTAL)).text;
    expect(verified).toContain('<dd data-verified="true">Verified by the operator');
    expect(verified).not.toContain('unverified');
    expect((await tr.get(PORTAL)).text).toContain('İşletmeci tarafından doğrulandı');
  });

  it('registers a public application without a secret', async () => {
    const { browser } = await signedIn();
    const made = await register(browser, { client_type: 'public', scope: 'profile' });
    expect(made.status).toBe(200);
    expect(credential(made.text, 'client_id')).toMatch(/^sp_client_/);
    expect(credential(made.text, 'client_secret')).toBeUndefined();
    expect(made.text).toContain('A public application has no secret');
  });

  it('ticks profile to begin with, and registers a device-only application without a redirect URI', async () => {
    const { browser, page } = await signedIn();
    expect(page.text).toMatch(/<input type="checkbox" id="register-scope-profile" name="scope" value="profile" checked>/);
    expect(page.text).toMatch(/<input type="checkbox" id="register-scope-read-startups" name="scope" value="read:startups">/);
    expect(page.text).not.toMatch(/<textarea id="register-uris"[^>]* required/);
    const made = await submit(browser, `${PORTAL}/applications`, { name: 'Terminal tool', redirect_uris: '', client_type: 'public', scope: 'profile', device_flow: 'on' });
    expect(made.status).toBe(200);
    expect(credential(made.text, 'client_id')).toMatch(/^sp_client_/);
    const device = await http(t.url, '/oauth/device_authorization', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: credential(made.text, 'client_id')!, scope: 'profile' }).toString(),
    });
    expect(device.status).toBe(200);
  });

  it('refuses a bad form with a clear message beside it, keeps what was typed, and makes nothing', async () => {
    const { user, browser } = await signedIn();
    const cases: Array<[Record<string, string | string[]>, string]> = [
      [{ redirect_uris: 'http://weather.example/cb' }, 'http is allowed only for localhost, 127.0.0.1 and [::1]; use https.'],
      [{ redirect_uris: 'https://weather.example/cb#top' }, 'A redirect URI must not contain a # fragment.'],
      [{ redirect_uris: '  ' }, 'Enter at least one redirect URI.'],
      [{ scope: [] }, 'Choose at least one scope.'],
      [{ scope: ['profile', 'admin'] }, 'An unknown scope was chosen.'],
      [{ client_type: 'partner' }, 'Choose Confidential or Public as the application type.'],
      [{ name: '' }, 'The name must be 1 to 200 characters long.'],
      [{ name: ['a', 'b'] }, 'The name must be 1 to 200 characters long.'],
    ];
    for (const [fields, message] of cases) {
      const refused = await register(browser, fields as never);
      expect(refused.status).toBe(400);
      expect(refused.text).toContain(`role="alert">Nothing was changed: ${message.replace(/&/g, '&amp;')}</p>`);
      expect(credential(refused.text, 'client_id')).toBeUndefined();
    }
    const refused = await register(browser, { name: 'Kept <name>', redirect_uris: 'http://weather.example/cb' });
    expect(refused.text).toContain('value="Kept &lt;name&gt;"');
    expect(refused.text).toContain('>http://weather.example/cb</textarea>');
    expect(await t.app.get(ClientsService, { strict: false }).listOwnedBy(user.id)).toEqual([]);
  });

  it('stops at DEVELOPER_MAX_CLIENTS with a clear message, also when registrations race', async () => {
    const { user, browser } = await signedIn();
    const page = await browser.get(PORTAL);
    const hidden = formInputs(page.text, `${PORTAL}/applications`);
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        browser.post(`${PORTAL}/applications`, { ...hidden, name: `Racer ${i}`, redirect_uris: 'https://race.example/cb', client_type: 'public', scope: 'profile' }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([303, 303, 303, 409, 409, 409]);
    for (const r of racing.filter((r) => r.status === 409)) {
      expect(r.text).toContain('Nothing was changed: You can register at most 3 applications. Delete one to register another.');
    }
    expect(await t.app.get(ClientsService, { strict: false }).listOwnedBy(user.id)).toHaveLength(3);
    expect((await browser.get(PORTAL)).text).toContain('You have reached the limit of 3 applications');
  });

  it('rotates a secret: the new one is shown once and works, the old one is refused at once', async () => {
    const { user, browser } = await signedIn();
    const made = await register(browser);
    const clientId = credential(made.text, 'client_id')!;
    const oldSecret = credential(made.text, 'client_secret')!;
    const rotated = await submit(browser, `${PORTAL}/applications/${clientId}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret = credential(rotated.text, 'client_secret')!;
    expect(newSecret).toMatch(/^sp_cs_/);
    expect(newSecret).not.toBe(oldSecret);
    expect((await introspectWith(clientId, oldSecret)).status).toBe(401);
    expect((await introspectWith(clientId, newSecret)).status).toBe(200);
    expect((await events.recent(user.id))[0]).toMatchObject({ type: 'client_secret_rotated', ip: '127.0.0.1', details: { clientId } });
  });

  it('edits name and redirect URIs under the registration rules', async () => {
    const { user, browser } = await signedIn();
    const clientId = credential((await register(browser)).text, 'client_id')!;
    const action = `${PORTAL}/applications/${clientId}/edit`;
    const refused = await submit(browser, action, { name: 'Renamed', redirect_uris: 'ftp://weather.example/cb' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('A redirect URI must use https (http for localhost).');
    expect(refused.text).toContain('<details open>');
    const saved = await submit(browser, action, { name: 'Renamed', redirect_uris: 'https://renamed.example/cb' });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${PORTAL}?done=client_updated`);
    expect((await browser.get(saved.location!)).text).toContain('The application was saved.');
    expect(await t.app.get(ClientsService, { strict: false }).findByClientId(clientId)).toMatchObject({ name: 'Renamed', redirectUris: ['https://renamed.example/cb'] });
    expect((await events.recent(user.id))[0]).toMatchObject({ type: 'client_updated', details: { client: 'Renamed' } });
  });

  it('unverifies a verified application whose owner changes its name or redirect URIs: the operator vouched for the old ones', async () => {
    const { browser } = await signedIn();
    const clientId = credential((await register(browser)).text, 'client_id')!;
    const clients = t.app.get(ClientsService, { strict: false });
    const action = `${PORTAL}/applications/${clientId}/edit`;
    const current = (await clients.findByClientId(clientId))!;
    await clients.setVerified(clientId, true);
    // Saved as it was (the same URIs in another order): still verified.
    expect((await submit(browser, action, { name: current.name, redirect_uris: [...current.redirectUris].reverse().join('\n') })).status).toBe(303);
    expect((await clients.findByClientId(clientId))!.verified).toBe(true);
    for (const edit of [{ name: 'Eve Bank Secure Login', redirect_uris: current.redirectUris.join('\n') }, { name: current.name, redirect_uris: 'https://phish.example/steal' }]) {
      await clients.setVerified(clientId, true);
      expect((await submit(browser, action, edit)).status).toBe(303);
      expect((await clients.findByClientId(clientId))!.verified).toBe(false);
      expect((await browser.get(PORTAL)).text).toContain('<dd data-verified="false">Not verified by the operator (unverified)');
    }
  });

  it('deletes an application with its tokens: they are refused at once', async () => {
    const { user, browser } = await signedIn();
    const clientId = credential((await register(browser)).text, 'client_id')!;
    const client = (await t.app.get(ClientsService, { strict: false }).findByClientId(clientId))!;
    const token = await issueTestToken(t.app, { scopes: ['profile'], clientId: client.id });
    expect((await http(t.url, '/api/public/v1/me', { headers: bearer(token.token) })).status).toBe(200);
    const deleted = await submit(browser, `${PORTAL}/applications/${clientId}/delete`);
    expect(deleted.status).toBe(303);
    expect((await http(t.url, '/api/public/v1/me', { headers: bearer(token.token) })).status).toBe(401);
    expect(listedClientIds((await browser.get(deleted.location!)).text)).toEqual([]);
    expect((await events.recent(user.id))[0]).toMatchObject({ type: 'client_deleted', details: { clientId } });
  });

  it('creates a standard API key shown once, lists it with prefix, created and last used, and revokes it', async () => {
    const { user, browser } = await signedIn();
    const made = await submit(browser, `${PORTAL}/api-keys`, { name: 'CI key' });
    expect(made.status).toBe(200);
    const key = credential(made.text, 'api_key')!;
    expect(key).toMatch(/^sp_key_/);
    const [apiKey] = await t.app.get(ApiKeysService, { strict: false }).listOwnedBy(user.id);
    expect(apiKey).toMatchObject({ name: 'CI key', tier: 'standard', ownerId: user.id, lastUsedAt: null });
    expect(made.text).toContain(`<code>${apiKey.prefix}…</code>`);
    expect(made.text).toMatch(/<td[^>]*>CI key<\/td><td[^>]*><code>sp_key_.{5}…<\/code><\/td><td[^>]*><time [^>]+>[^<]+<\/time><\/td><td[^>]*>never<\/td>/);

    const used = await http(t.url, '/api/public/v1/industries', { headers: { 'x-api-key': key } });
    expect(used.status).toBe(200);
    expect(used.headers.get('ratelimit-limit') ?? used.headers.get('x-ratelimit-limit')).toBe('600');
    // The last use is written after the answer: wait for it (however long a busy machine takes).
    await eventually(async () => (await t.app.get(ApiKeysService, { strict: false }).findById(apiKey.id))?.lastUsedAt);
    const listed = await browser.get(PORTAL);
    expect(listed.text).not.toContain(key);
    expect(listed.text).toMatch(/<td[^>]*>CI key<\/td><td[^>]*><code>sp_key_.{5}…<\/code><\/td><td[^>]*><time [^>]+>[^<]+<\/time><\/td><td[^>]*><time /);

    const revoked = await submit(browser, `${PORTAL}/api-keys/${apiKey.id}/revoke`);
    expect(revoked.status).toBe(303);
    expect((await browser.get(revoked.location!)).text).toContain('The API key was revoked.');
    expect((await http(t.url, '/api/public/v1/industries', { headers: { 'x-api-key': key } })).status).toBe(401);
    expect((await events.recent(user.id)).slice(0, 2).map((e) => e.type)).toEqual(['api_key_revoked', 'api_key_created']);
  });

  describe('a credential shown once (Post/Redirect/Get)', () => {
    it('is the answer to the GET the post redirects to: a reload, or the back button, shows it gone and makes nothing', async () => {
      const { user, browser } = await signedIn();
      const page = await browser.get(PORTAL);
      const posted = await browser.post(`${PORTAL}/api-keys`, { ...formInputs(page.text, `${PORTAL}/api-keys`), name: 'CI key' });
      expect(posted.status).toBe(303);
      expect(posted.location).toBe(SHOWN);
      expect(posted.text).toBe('');
      const held = posted.headers.getSetCookie().find((c) => c.startsWith('sp_shown='))!;
      expect(held).toMatch(/; Path=\/account\/developer(;|$)/);
      expect(held).toMatch(/; HttpOnly/);
      expect(held).toMatch(/; SameSite=Strict/);
      expect(held).not.toContain('sp_key_');

      const shown = await browser.get(SHOWN);
      expect(shown.headers.get('cache-control')).toBe('no-store');
      const key = credential(shown.text, 'api_key')!;
      expect(key).toMatch(/^sp_key_/);
      for (let reload = 0; reload < 2; reload++) {
        const again = await browser.get(SHOWN);
        expect(again.status).toBe(200);
        expect(credential(again.text, 'api_key')).toBeUndefined();
        expect(again.text).not.toContain(key);
      }
      expect(await t.app.get(ApiKeysService, { strict: false }).listOwnedBy(user.id)).toHaveLength(1);
    });

    it('shows a new secret after a rotation the same way, and never in the answer to the post', async () => {
      const { browser } = await signedIn();
      const clientId = credential((await register(browser)).text, 'client_id')!;
      const page = await browser.get(PORTAL);
      const action = `${PORTAL}/applications/${clientId}/rotate-secret`;
      const posted = await browser.post(action, formInputs(page.text, action));
      expect([posted.status, posted.location, posted.text]).toEqual([303, SHOWN, '']);
      const shown = await browser.get(SHOWN);
      expect(credential(shown.text, 'client_secret')).toMatch(/^sp_cs_/);
      expect(shown.text).toContain('New client secret');
      expect(credential((await browser.get(SHOWN)).text, 'client_secret')).toBeUndefined();
    });

    it("opens only in the session that made it: a copy of the cookie in another session shows nothing, even the same user's", async () => {
      const alice = await signedIn();
      const page = await alice.browser.get(PORTAL);
      const posted = await alice.browser.post(`${PORTAL}/api-keys`, { ...formInputs(page.text, `${PORTAL}/api-keys`), name: 'alice key' });
      const copied = alice.browser.cookies.get('sp_shown')!;
      expect(copied).toBeDefined();

      // The same user signed in on another browser, and another user: the key is in the first one's list.
      for (const other of [await signedIn(alice.user), await signedIn()]) {
        other.browser.cookies.set('sp_shown', copied);
        const stolen = await other.browser.get(posted.location!);
        expect(stolen.status).toBe(200);
        expect(credential(stolen.text, 'api_key')).toBeUndefined();
        expect(other.browser.cookies.has('sp_shown')).toBe(false);
      }
      // The owner's session still sees it once.
      expect(credential((await alice.browser.get(posted.location!)).text, 'api_key')).toMatch(/^sp_key_/);
    });

    it('shows nothing for a key revoked in another tab before the page was fetched', async () => {
      const { user, browser } = await signedIn();
      const page = await browser.get(PORTAL);
      await browser.post(`${PORTAL}/api-keys`, { ...formInputs(page.text, `${PORTAL}/api-keys`), name: 'short-lived' });
      const held = browser.cookies.get('sp_shown')!;
      const [apiKey] = await t.app.get(ApiKeysService, { strict: false }).listOwnedBy(user.id);
      await submit(browser, `${PORTAL}/api-keys/${apiKey.id}/revoke`);
      browser.cookies.set('sp_shown', held);
      expect(credential((await browser.get(SHOWN)).text, 'api_key')).toBeUndefined();
    });
  });

  it('stops at DEVELOPER_MAX_API_KEYS live keys, also when creations race; a revoked key frees its place', async () => {
    const { user, browser } = await signedIn();
    const page = await browser.get(PORTAL);
    const hidden = formInputs(page.text, `${PORTAL}/api-keys`);
    const racing = await Promise.all(Array.from({ length: 5 }, (_, i) => browser.post(`${PORTAL}/api-keys`, { ...hidden, name: `key ${i}` })));
    expect(racing.map((r) => r.status).sort()).toEqual([303, 303, 409, 409, 409]);
    expect(racing.find((r) => r.status === 409)!.text).toContain('You can have at most 2 live API keys. Revoke one to create another.');
    const keys = await t.app.get(ApiKeysService, { strict: false }).listOwnedBy(user.id);
    expect(keys).toHaveLength(2);
    await submit(browser, `${PORTAL}/api-keys/${keys[0].id}/revoke`);
    expect((await submit(browser, `${PORTAL}/api-keys`, { name: 'replacement' })).status).toBe(200);
  });

  it('refuses a bad key name with a clear message and makes nothing', async () => {
    const { user, browser } = await signedIn();
    for (const name of ['', ' '.repeat(3), 'x'.repeat(201), 'tab\there']) {
      const refused = await submit(browser, `${PORTAL}/api-keys`, { name });
      expect(refused.status).toBe(400);
      expect(refused.text).toMatch(/Nothing was changed: The key name must (be 1 to 200 characters long|not contain control characters)\./);
    }
    expect(await t.app.get(ApiKeysService, { strict: false }).listOwnedBy(user.id)).toEqual([]);
  });

  describe('application names and redirect URIs (SECURITY.md)', () => {
    const rules: Array<[string, Record<string, string>, { en: string; tr: string }]> = [
      ['a right-to-left override in the name', { name: 'Bank \u202eppa' }, { en: 'The name must not contain control characters or invisible formatting characters', tr: 'Ad denetim karakteri ya da görünmeyen biçim karakteri' }],
      ['a zero-width space in the name', { name: 'Goo\u200bgle' }, { en: 'The name must not contain control characters or invisible formatting characters', tr: 'Ad denetim karakteri ya da görünmeyen biçim karakteri' }],
      ['the platform\'s own name', { name: 'Startup Platform' }, { en: 'The name looks like the platform', tr: 'Ad, platformun kendi adına benziyor' }],
      ['the platform\'s name in look-alike letters', { name: 'STARTUP P1atf\u043erm' }, { en: 'The name looks like the platform', tr: 'Ad, platformun kendi adına benziyor' }],
      ['a Cyrillic о among Latin letters', { name: 'G\u043e\u043egle' }, { en: 'A word of the name mixes letters of different scripts', tr: 'Adın bir sözcüğü birden çok alfabenin harflerini karıştırıyor' }],
      ['a wildcard', { redirect_uris: 'https://*.weather.example/cb' }, { en: 'A redirect URI must not contain *, ;, , or \\.', tr: 'Yönlendirme adresi *, ;, , ya da \\ karakterlerini içeremez.' }],
      ['a semicolon', { redirect_uris: 'https://weather.example;script-src/cb' }, { en: 'A redirect URI must not contain *, ;, , or \\.', tr: 'Yönlendirme adresi *, ;, , ya da \\ karakterlerini içeremez.' }],
      ['no // after the scheme', { redirect_uris: 'https:weather.example/cb' }, { en: 'A redirect URI needs // after its scheme', tr: 'şemadan sonra // gelmeli' }],
      ['an underscore in the host', { redirect_uris: 'https://weather_app.example/cb' }, { en: 'The host of a redirect URI must be a domain name', tr: 'Yönlendirme adresinin sunucusu bir alan adı' }],
      ['a host not in its xn-- form', { redirect_uris: 'https://hava-durumu.örnek/cb' }, { en: 'A redirect URI may hold only ASCII characters', tr: 'Yönlendirme adresinde yalnızca ASCII karakterler olabilir' }],
      ['user info', { redirect_uris: 'https://me@weather.example/cb' }, { en: 'A redirect URI must not contain a user name or password.', tr: 'Yönlendirme adresi kullanıcı adı ya da parola içeremez.' }],
      [
        'a form the URL parser rewrites',
        { redirect_uris: 'https://Weather.example:443' },
        { en: 'Redirect URIs are compared exactly, so write each in the form a URL parser gives it (a lower-case host, no default port, a path of at least /). Write it as: https://weather.example/', tr: 'Şöyle yazın: https://weather.example/' },
      ],
    ];

    it.each(rules)('refuses %s at registration and at edit, in English and Turkish, and changes nothing', async (_case, fields, message) => {
      for (const language of ['en', 'tr'] as const) {
        const user = await createSignInUser(t.app);
        const browser = new BrowserSession(t.url, language);
        await signInAt(browser, PORTAL, user);
        const refused = await register(browser, fields);
        expect(refused.status).toBe(400);
        expect(refused.text).toMatch(new RegExp(`role="alert">(Nothing was changed:|Hiçbir şey değiştirilmedi:) [^<]*${escapeRegExp(message[language].replace(/&/g, '&amp;'))}`));
        expect(credential(refused.text, 'client_id')).toBeUndefined();
        expect(await t.app.get(ClientsService, { strict: false }).listOwnedBy(user.id)).toEqual([]);

        const clientId = credential((await register(browser)).text, 'client_id')!;
        const before = await t.app.get(ClientsService, { strict: false }).findByClientId(clientId);
        const edit = await submit(browser, `${PORTAL}/applications/${clientId}/edit`, { name: 'Weather app', redirect_uris: 'https://weather.example/cb', ...fields });
        expect(edit.status).toBe(400);
        expect(edit.text).toContain(message[language].replace(/&/g, '&amp;'));
        expect(await t.app.get(ClientsService, { strict: false }).findByClientId(clientId)).toEqual(before);
      }
    });

    it('accepts a redirect URI already in the parser\'s form, on an IP literal or an xn-- host, and shows names isolated', async () => {
      const { browser } = await signedIn();
      const made = await register(browser, { name: 'مكتبة Books', redirect_uris: 'https://xn--bcher-kva.example/cb\nhttps://[2001:db8::1]:8443/cb\nhttp://[::1]/cb' });
      expect(made.status).toBe(200);
      expect(made.text).toContain(': <bdi>مكتبة Books</bdi></h2>');
      const page = await browser.get(PORTAL);
      expect(page.text).toMatch(/<h3 id="[^"]+-name"><bdi>مكتبة Books<\/bdi><\/h3>/);
      const clientId = credential(made.text, 'client_id')!;
      expect(await t.app.get(ClientsService, { strict: false }).findByClientId(clientId)).toMatchObject({
        redirectUris: ['https://xn--bcher-kva.example/cb', 'https://[2001:db8::1]:8443/cb', 'http://[::1]/cb'],
      });
    });
  });

  describe('ownership and forged posts', () => {
    it('answers 403 and changes nothing when a second user replays the first user\'s forms', async () => {
      const alice = await signedIn();
      const made = await register(alice.browser);
      const clientId = credential(made.text, 'client_id')!;
      const secret = credential(made.text, 'client_secret')!;
      await submit(alice.browser, `${PORTAL}/api-keys`, { name: 'alice key' });
      const [aliceKey] = await t.app.get(ApiKeysService, { strict: false }).listOwnedBy(alice.user.id);
      const alicePage = await alice.browser.get(PORTAL);

      const bob = await signedIn();
      expect(bob.page.text).not.toContain(clientId);
      const forms = [
        `${PORTAL}/applications/${clientId}/rotate-secret`,
        `${PORTAL}/applications/${clientId}/edit`,
        `${PORTAL}/applications/${clientId}/delete`,
        `${PORTAL}/api-keys/${aliceKey.id}/revoke`,
      ];
      for (const action of forms) {
        // Bob's own session and CSRF token, Alice's form (the edit form's fields; a button posts only the token).
        const fields: Record<string, string> = action.endsWith('/edit') ? { name: 'Mine now', redirect_uris: 'https://evil.example/cb' } : {};
        const replayed = await bob.browser.post(action, { ...formInputs(bob.page.text, `${PORTAL}/applications`), ...fields });
        expect(replayed.status).toBe(403);
        expect(replayed.text).toContain('Nothing was changed.');
        // Alice's form as it was, CSRF token included, under Bob's session.
        const asIs = await bob.browser.post(action, formInputs(alicePage.text, action));
        expect(asIs.status).toBe(403);
      }
      expect(await t.app.get(ClientsService, { strict: false }).findByClientId(clientId)).toMatchObject({ name: 'Weather app', redirectUris: ['https://weather.example/cb', 'http://127.0.0.1:8080/cb'] });
      expect((await introspectWith(clientId, secret)).status).toBe(200);
      expect((await t.app.get(ApiKeysService, { strict: false }).findById(aliceKey.id))?.revokedAt).toBeNull();
      expect((await events.recent(bob.user.id)).filter((e) => e.type !== 'sign_in')).toEqual([]);
    });

    it('answers 403 and changes nothing without a valid CSRF token or from another site', async () => {
      const { user, browser, page } = await signedIn();
      const action = `${PORTAL}/api-keys`;
      const hidden = formInputs(page.text, action);
      for (const [form, headers] of [
        [{ name: 'no token' }, {}],
        [{ csrf_token: 'forged', name: 'forged token' }, {}],
        [{ ...hidden, name: 'cross site' }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
      ] as Array<[Record<string, string>, Record<string, string>]>) {
        const refused = await browser.post(action, form, headers);
        expect(refused.status).toBe(403);
        expect(refused.text).toContain('Nothing was changed.');
      }
      expect(await t.app.get(ApiKeysService, { strict: false }).listOwnedBy(user.id)).toEqual([]);
      expect((await browser.post(action, { ...hidden, name: 'the real one' })).status).toBe(303);
    });

    it('never shows or touches what an operator made with the CLI', async () => {
      const clients = t.app.get(ClientsService, { strict: false });
      const { client } = await clients.create({ name: 'Operator app', redirectUris: ['https://ops.example/cb'], scopes: ['profile'], type: 'confidential' });
      const { apiKey } = await t.app.get(ApiKeysService, { strict: false }).create({ name: 'Operator key', tier: 'partner' });
      const { browser, page } = await signedIn();
      expect(page.text).not.toContain(client.clientId);
      expect(page.text).not.toContain('Operator key');
      const hidden = formInputs(page.text, `${PORTAL}/applications`);
      expect((await browser.post(`${PORTAL}/applications/${client.clientId}/delete`, hidden)).status).toBe(403);
      expect((await browser.post(`${PORTAL}/api-keys/${apiKey.id}/revoke`, hidden)).status).toBe(403);
      expect(await clients.findByClientId(client.clientId)).not.toBeNull();
      expect((await t.app.get(ApiKeysService, { strict: false }).findById(apiKey.id))?.revokedAt).toBeNull();
    });
  });
});

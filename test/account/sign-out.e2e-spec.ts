import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SecurityEventsService } from '../../src/security-events/security-events.service';
import { EndedSession } from '../../src/web/session/ended-session.entity';
import { s256Challenge } from '../../src/oauth/pkce';
import { TokenPurgeService } from '../../src/purge/token-purge.service';
import { formInputs, signInAt } from '../helpers/account';
import { authorizePath, BrowserSession, createSignInUser, OAuthTestClient, OAuthTestUser, registerClient, runAuthorization } from '../helpers/oauth';
import { runCli } from '../helpers/processes';
import { isolatedStorage, startTestApp, TestApp } from '../helpers/test-app';

const VERIFIER = 'v'.repeat(20) + randomBytes(24).toString('base64url');
const SESSION_TTL_SECONDS = 28_800;

/** The cookies of a browser at one moment: what another tab, or a thief, holds. */
type CookieJar = Map<string, string>;

/** A browser that carries `jar`, pointed at `base` (another instance shares the session secret). */
function holderOf(jar: CookieJar, base: string): BrowserSession {
  const browser = new BrowserSession(base);
  for (const [name, value] of jar) browser.cookies.set(name, value);
  return browser;
}

function authorizeUrl(client: OAuthTestClient, extra: Record<string, string> = {}): string {
  return authorizePath({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: 'profile',
    state: 'st',
    code_challenge: s256Challenge(VERIFIER),
    code_challenge_method: 'S256',
    ...extra,
  });
}

/**
 * What a cookie grants on an instance: the account page, and /oauth/authorize with a remembered
 * consent, which answers at once with a code (`prompt=none`) when the session is signed in.
 */
async function grants(browser: BrowserSession, client: OAuthTestClient): Promise<{ account: number; authorize: string | null }> {
  const account = await browser.get('/account');
  const silent = await browser.get(authorizeUrl(client, { prompt: 'none' }));
  const back = new URL(silent.location!);
  return { account: account.status, authorize: back.searchParams.has('code') ? 'code' : back.searchParams.get('error') };
}

/**
 * Sign-out ends the session on the server too (README.md, Your account; SECURITY.md): the cookie is a sealed copy of
 * the session, so a copy taken before sign-out (another tab's, a stolen one) must stop working on every
 * instance, not only the cookie of the browser that signed out.
 */
describe('Sign out ends the session on the server (README.md, Your account)', () => {
  let t: TestApp;
  let client: OAuthTestClient;
  let events: SecurityEventsService;

  beforeAll(async () => {
    t = await startTestApp();
    client = await registerClient(t.app, { scopes: ['profile'] });
    events = t.app.get(SecurityEventsService, { strict: false });
  });
  afterAll(() => t?.close());

  /** A user signed in at /account in a browser, with a consent to `client` remembered. */
  async function signedIn(user?: OAuthTestUser) {
    const ada = user ?? (await createSignInUser(t.app));
    const browser = new BrowserSession(t.url);
    await signInAt(browser, '/account', ada);
    await runAuthorization(browser, authorizeUrl(client), ada);
    return { ada, browser };
  }

  /** Signs out with the account page's form; resolves with that form (its CSRF token included). */
  async function signOut(browser: BrowserSession): Promise<Record<string, string>> {
    const form = formInputs((await browser.get('/account')).text, '/account/sign-out');
    const out = await browser.post('/account/sign-out', form);
    expect([out.status, out.location]).toEqual([303, '/oauth/sign-in?return_to=%2Faccount']);
    return form;
  }

  it('refuses a copy of the cookie taken before sign-out, on the account pages and on /oauth/authorize', async () => {
    const { ada, browser } = await signedIn();
    const copy: CookieJar = new Map(browser.cookies);
    expect(await grants(holderOf(copy, t.url), client)).toEqual({ account: 200, authorize: 'code' });

    const form = await signOut(browser);

    const stolen = holderOf(copy, t.url);
    const account = await stolen.get('/account');
    expect([account.status, account.location]).toEqual([303, '/oauth/sign-in?return_to=%2Faccount']);
    expect((await holderOf(copy, t.url).get('/account/apps')).status).toBe(303);
    expect((await holderOf(copy, t.url).get('/account/developer')).status).toBe(303);
    // The sign-in page no longer sends it straight back as signed in.
    const signInPage = await holderOf(copy, t.url).get('/oauth/sign-in?return_to=%2Faccount');
    expect(signInPage.status).toBe(200);
    expect(signInPage.text).toContain('name="password"');
    // /oauth/authorize shows the sign-in page instead of skipping the remembered consent.
    const authorize = await holderOf(copy, t.url).get(authorizeUrl(client));
    expect(authorize.status).toBe(200);
    expect(authorize.text).toContain('name="password"');
    expect(authorize.text).not.toContain('name="decision"');
    expect(await grants(holderOf(copy, t.url), client)).toEqual({ account: 303, authorize: 'login_required' });

    // A post with the copy and the form of the ended session changes nothing: the 403 page.
    const replayed = await holderOf(copy, t.url).post('/account/sign-out', form);
    expect(replayed.status).toBe(403);
    expect(replayed.text).toContain('Nothing was changed.');
    expect((await events.recent(ada.id)).filter((event) => event.type === 'sign_out')).toHaveLength(1);
  });

  it('ends only the session signed out: the same user elsewhere stays signed in, and signing in again works', async () => {
    const { ada, browser } = await signedIn();
    const { browser: elsewhere } = await signedIn(ada);
    const copy: CookieJar = new Map(browser.cookies);
    await signOut(browser);

    expect(await grants(elsewhere, client)).toEqual({ account: 200, authorize: 'code' });
    // The holder of the ended cookie signs in again: a fresh session id, which works.
    const again = holderOf(copy, t.url);
    expect((await signInAt(again, '/account', ada)).status).toBe(200);
    expect(await grants(again, client)).toEqual({ account: 200, authorize: 'code' });
    expect(await grants(browser, client)).toEqual({ account: 303, authorize: 'login_required' });
  });

  it('ends the session a sign-in again replaces (prompt=login, or as another user): a copy of the earlier cookie grants nothing', async () => {
    const { ada, browser } = await signedIn();
    const before: CookieJar = new Map(browser.cookies);
    // OWASP ASVS 5.0 V7.2.4: re-authentication makes a new session and ends the current one.
    const back = await runAuthorization(browser, authorizeUrl(client, { prompt: 'login' }), ada);
    expect(back.searchParams.has('code')).toBe(true);
    expect(await grants(browser, client)).toEqual({ account: 200, authorize: 'code' });
    expect(await grants(holderOf(before, t.url), client)).toEqual({ account: 303, authorize: 'login_required' });

    // Another person signs in in the same browser: the first user's session ends with it.
    const adas: CookieJar = new Map(browser.cookies);
    const grace = await createSignInUser(t.app);
    await runAuthorization(browser, authorizeUrl(client, { prompt: 'login' }), grace);
    expect((await browser.get('/account')).text).toContain(grace.email);
    expect(await grants(holderOf(adas, t.url), client)).toEqual({ account: 303, authorize: 'login_required' });
  });

  it('records the ended session once, until its cookie would expire, even when two tabs sign out at once', async () => {
    const db = t.app.get(DataSource);
    const count = async () => Number((await db.query('SELECT COUNT(*) AS n FROM ended_sessions'))[0].n);
    const before = await count();
    const signedInAt = Date.now();
    const { browser } = await signedIn();
    const page = await browser.get('/account');
    const form = formInputs(page.text, '/account/sign-out');
    const copy: CookieJar = new Map(browser.cookies);
    const outs = await Promise.all([holderOf(copy, t.url), holderOf(copy, t.url)].map((tab) => tab.post('/account/sign-out', form)));
    // Both tabs end the same session (the second may already find it ended: then a 403 that changes nothing).
    expect(outs.map((out) => out.status).sort()).toEqual(expect.arrayContaining([303]));
    for (const out of outs) expect([303, 403]).toContain(out.status);
    expect(await count()).toBe(before + 1);
    const [newest] = await db.query('SELECT expires_at FROM ended_sessions ORDER BY expires_at DESC LIMIT 1');
    expect(Number(newest.expires_at)).toBeGreaterThanOrEqual(signedInAt + SESSION_TTL_SECONDS * 1000);
    expect(Number(newest.expires_at)).toBeLessThanOrEqual(Date.now() + SESSION_TTL_SECONDS * 1000);
  });

  it('records nothing for a visitor who was never signed in', async () => {
    const db = t.app.get(DataSource);
    const before = Number((await db.query('SELECT COUNT(*) AS n FROM ended_sessions'))[0].n);
    const visitor = new BrowserSession(t.url);
    expect((await visitor.get('/oauth/sign-in?return_to=%2Faccount')).status).toBe(200);
    expect((await visitor.get('/oauth/logout')).status).toBe(200);
    expect(Number((await db.query('SELECT COUNT(*) AS n FROM ended_sessions'))[0].n)).toBe(before);
  });

  describe('signed-out sessions', () => {
    it('are purged once past their expiry, and only then', async () => {
      const { browser } = await signedIn();
      const copy: CookieJar = new Map(browser.cookies);
      await signOut(browser);
      const now = Date.now();
      const ended = t.app.get(DataSource).getRepository(EndedSession);
      await ended.insert([
        { sid: 'expired-long-ago', expiresAt: now - 86_400_000 },
        { sid: 'expired-just-now', expiresAt: now },
        // Far enough ahead that the wall clock never reaches it while the suite runs: the next test purges
        // by the real clock (through the CLI) and must find only its own expired row.
        { sid: 'expires-tomorrow', expiresAt: now + 86_400_000 },
      ]);
      const live = (await ended.find()).filter((row) => row.expiresAt > now).map((row) => row.sid);

      const result = await t.app.get(TokenPurgeService).purge(now);
      expect(result.endedSessions).toBe(2);
      expect((await ended.find()).map((row) => row.sid).sort()).toEqual(live.sort());
      expect(live).toContain('expires-tomorrow');
      // The signed-out session has not expired: its row stays, and its copy is still refused.
      expect((await holderOf(copy, t.url).get('/account')).status).toBe(303);
      expect((await t.app.get(TokenPurgeService).purge(now)).endedSessions).toBe(0);
    });

    it('are purged by `cli tokens:purge` too', async () => {
      // The CLI purges by the real clock, which the test cannot set: a row expired a day ago, and one
      // that expires in a day, are on either side of it however long the suite and the CLI take (a row
      // made to expire "in a second" once expired before the purge ran). Rows other tests left keep
      // their own side, so the count is taken from the table rather than assumed.
      const ended = t.app.get(DataSource).getRepository(EndedSession);
      const now = Date.now();
      await ended.insert([
        { sid: 'expired-for-the-cli', expiresAt: now - 86_400_000 },
        { sid: 'live-for-the-cli', expiresAt: now + 86_400_000 },
      ]);
      const expired = (await ended.find()).filter((row) => row.expiresAt <= now).length;
      const result = await runCli(['tokens:purge', '--json'], t.env);
      expect([result.status, result.stderr]).toEqual([0, '']);
      expect(result.json.endedSessions).toBe(expired);
      expect(expired).toBeGreaterThanOrEqual(1);
      expect(await ended.findOneBy({ sid: 'expired-for-the-cli' })).toBeNull();
      expect(await ended.findOneBy({ sid: 'live-for-the-cli' })).not.toBeNull();
    });
  });

  describe('on two instances sharing one database', () => {
    let storage: Awaited<ReturnType<typeof isolatedStorage>>;
    let a: TestApp;
    let b: TestApp;

    beforeAll(async () => {
      storage = await isolatedStorage();
      const shared = {
        ...storage.env,
        // One secret seals the session cookie on every instance, so either reads the other's cookie.
        SESSION_SECRET: 'one session secret for both instances, 32+ characters',
        KEY_ENCRYPTION_SECRET: 'one key encryption secret for both instances, 32+ characters',
      };
      a = await startTestApp(shared);
      b = await startTestApp(shared);
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
      await storage?.drop();
    });

    it.each([
      ['signed out on the first, replayed on the second', 0],
      ['signed out on the second, replayed on the first', 1],
    ])('refuses a session %s', async (_name, first) => {
      const [here, there] = first === 0 ? [a, b] : [b, a];
      const sharedClient = await registerClient(here.app, { scopes: ['profile'] });
      const ada = await createSignInUser(here.app);
      const browser = new BrowserSession(here.url);
      await signInAt(browser, '/account', ada);
      await runAuthorization(browser, authorizeUrl(sharedClient), ada);
      const copy: CookieJar = new Map(browser.cookies);
      expect(await grants(holderOf(copy, there.url), sharedClient)).toEqual({ account: 200, authorize: 'code' });

      await signOut(browser);

      expect(await grants(holderOf(copy, there.url), sharedClient)).toEqual({ account: 303, authorize: 'login_required' });
      expect(await grants(holderOf(copy, here.url), sharedClient)).toEqual({ account: 303, authorize: 'login_required' });
    });
  });
});

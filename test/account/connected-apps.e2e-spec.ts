import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SecurityEventsService } from '../../src/security-events/security-events.service';
import { s256Challenge } from '../../src/oauth/pkce';
import { TestClock } from '../helpers/clock';
import { formInputs, signInAt } from '../helpers/account';
import { authorizationCode, introspect, me, Provisioned, redeem, refresh, REDIRECT_URI, VERIFIER } from '../helpers/flows';
import { http } from '../helpers/http';
import { authorizePath, BrowserSession, createSignInUser, hiddenInputs, OAuthTestUser, registerClient } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/** Connected apps and Revoke access (README.md, Your account). */
describe.each([
  ['without a token cache', '0'],
  ['with the token cache on', '60000'],
])('Connected apps (README.md, Your account), %s', (_name, cacheTtl) => {
  let t: TestApp;
  let events: SecurityEventsService;

  beforeAll(async () => {
    t = await startTestApp({ TOKEN_CACHE_TTL_MS: cacheTtl });
    events = t.app.get(SecurityEventsService, { strict: false });
  });
  afterAll(() => t.close());

  /** A user, a confidential client, and the user signed in to the account pages in `browser`. */
  async function setUp(user?: OAuthTestUser, clientName?: string) {
    const owner = user ?? (await createSignInUser(t.app));
    const client = await registerClient(t.app, { redirectUris: [REDIRECT_URI], scopes: ['profile', 'read:startups'], name: clientName ?? `App ${randomBytes(3).toString('hex')}` });
    const p: Provisioned = { user: owner, client: { clientId: client.clientId, clientSecret: client.clientSecret!, redirectUri: REDIRECT_URI } };
    const browser = new BrowserSession(t.url);
    await signInAt(browser, '/account', owner);
    return { owner, client, p, browser };
  }

  async function grant(p: Provisioned, browser: BrowserSession, scope = 'profile read:startups') {
    const res = await redeem(t.url, p, await authorizationCode(browser, p, scope));
    expect(res.status).toBe(200);
    return res.body as { access_token: string; refresh_token: string };
  }

  function authorizeUrl(p: Provisioned, extra: Record<string, string> = {}) {
    return authorizePath({
      response_type: 'code',
      client_id: p.client.clientId,
      redirect_uri: p.client.redirectUri,
      scope: 'profile',
      state: 's',
      code_challenge: s256Challenge(VERIFIER),
      code_challenge_method: 'S256',
      ...extra,
    });
  }

  it('lists every application the user granted, with its scopes in plain words, first granted and last used', async () => {
    const { owner, client, p, browser } = await setUp(undefined, 'Acme <Books>');
    const before = Date.now();
    await grant(p, browser, 'profile');
    const issued = await grant(p, browser, 'profile read:startups');
    const other = await setUp(owner, 'Zeta Notes');
    await grant(other.p, browser, 'read:startups');
    // Someone else's grant of the same application is not this user's.
    const stranger = await createSignInUser(t.app);
    await grant({ ...p, user: stranger }, new BrowserSession(t.url));

    const page = await browser.get('/account/apps');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Connected apps</h1>');
    expect(page.text).toContain('<h2 id="app-0"><bdi>Acme &lt;Books&gt;</bdi></h2>');
    expect(page.text).toContain('<h2 id="app-1"><bdi>Zeta Notes</bdi></h2>');
    expect(page.text.match(/<li class="card">/g)).toHaveLength(2);
    const acme = page.text.slice(page.text.indexOf('id="app-0"'), page.text.indexOf('id="app-1"'));
    expect(acme).toContain('See your name and email address');
    expect(acme).toContain('Read startup data');
    expect(acme).toContain(`value="${client.clientId}"`);
    expect(acme).toMatch(/Access given<\/dt><dd><time datetime="[^"]+">/);
    expect(acme).toMatch(/Last used<\/dt><dd><time datetime="[^"]+">/);

    const [row] = await t.app.get(DataSource).query(`SELECT MIN(created_at) AS first, MAX(last_used_at) AS last FROM oauth_consents WHERE user_id = ${owner.id} AND client_id = ${client.id}`);
    expect(Number(row.first)).toBeGreaterThanOrEqual(before);
    expect(Number(row.last)).toBeGreaterThanOrEqual(Number(row.first));

    const turkish = await browser.get('/account/apps', { 'accept-language': 'tr' });
    expect(turkish.text).toContain('<h1>Bağlı uygulamalar</h1>');
    expect(turkish.text).toContain('Girişim verilerini okuma');
    expect(turkish.text).toContain('Erişimi kaldır');
    void issued;
  });

  it('records "last used" when a token is issued or refreshed, never on an API call', async () => {
    const { owner, client, p, browser } = await setUp();
    const lastUsed = async () =>
      Number((await t.app.get(DataSource).query(`SELECT last_used_at FROM oauth_consents WHERE user_id = ${owner.id} AND client_id = ${client.id}`))[0].last_used_at);
    const issued = await grant(p, browser);
    const afterGrant = await lastUsed();
    expect(afterGrant).toBeGreaterThan(0);
    // The token endpoint reads the app's Clock: a minute later, the refresh is recorded at that minute.
    const clock = new TestClock(t.app);
    try {
      clock.setTo(afterGrant + 60_000);
      expect((await me(t.url, issued.access_token)).status).toBe(200);
      expect(await lastUsed()).toBe(afterGrant);
      const rotated = await refresh(t.url, p, issued.refresh_token);
      expect(rotated.status).toBe(200);
      expect(await lastUsed()).toBe(afterGrant + 60_000);
    } finally {
      clock.restore();
    }
  });

  it('Revoke access: every token of that user for that client dies at once, the consent is forgotten, and nothing else changes', async () => {
    const { owner, client, p, browser } = await setUp();
    const first = await grant(p, browser);
    const second = await grant(p, browser);
    const pendingCode = await authorizationCode(browser, p);
    // Another application of the same user, and another user of the same application, keep their access.
    const other = await setUp(owner);
    const otherTokens = await grant(other.p, browser);
    const stranger = await createSignInUser(t.app);
    const strangerTokens = await grant({ ...p, user: stranger }, new BrowserSession(t.url));
    for (const token of [first, second, otherTokens, strangerTokens]) expect((await me(t.url, token.access_token)).status).toBe(200);

    const page = await browser.get('/account/apps');
    const form = formInputs(page.text.slice(page.text.indexOf(client.name)), '/account/apps/revoke');
    expect(form.client_id).toBe(client.clientId);
    const revoked = await browser.post('/account/apps/revoke', form);
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe(`/account/apps?revoked=${encodeURIComponent(client.clientId)}`);

    const after = await browser.get(revoked.location!);
    expect(after.text).toContain(`<bdi>${client.name}</bdi> no longer has access to your account.`);
    expect(after.text).not.toContain(`value="${client.clientId}"`);
    expect(after.text).toContain(other.client.name);

    // The app's next call gets 401; its refresh token and its code not yet redeemed are worthless.
    for (const token of [first, second]) {
      const call = await me(t.url, token.access_token);
      expect(call.status).toBe(401);
      expect((await introspect(t.url, p, token.access_token)).body).toEqual({ active: false });
      const refreshed = await refresh(t.url, p, token.refresh_token);
      expect([refreshed.status, refreshed.body.error]).toEqual([400, 'invalid_grant']);
    }
    const late = await redeem(t.url, p, pendingCode);
    expect([late.status, late.body.error]).toEqual([400, 'invalid_grant']);
    for (const token of [otherTokens, strangerTokens]) expect((await me(t.url, token.access_token)).status).toBe(200);

    // Its next authorize asks for consent again.
    const none = await browser.get(authorizeUrl(p, { prompt: 'none' }));
    expect(new URL(none.location!).searchParams.get('error')).toBe('consent_required');
    const again = await browser.get(authorizeUrl(p));
    expect(again.status).toBe(200);
    expect(again.text).toContain('name="decision"');

    const recorded = await events.recent(owner.id);
    expect(recorded[0]).toEqual({ type: 'access_revoked', at: expect.any(Number), ip: '127.0.0.1', details: { client: client.name, clientId: client.clientId } });
    const account = await browser.get('/account');
    expect(account.text).toContain("An application&#39;s access revoked");
  });

  it('Revoke access also denies a device the user approved that has not collected its tokens yet: its next poll gets access_denied', async () => {
    const owner = await createSignInUser(t.app);
    const tv = await registerClient(t.app, { type: 'public', scopes: ['profile'], deviceFlow: true, name: `TV ${randomBytes(3).toString('hex')}` });
    const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    const started = await http(t.url, '/oauth/device_authorization', form({ client_id: tv.clientId, scope: 'profile' }));
    const browser = new BrowserSession(t.url);
    await signInAt(browser, '/account', owner);
    const consent = await browser.get(`/device/consent?user_code=${started.body.user_code}`);
    expect((await browser.post('/device/consent', { ...hiddenInputs(consent.text), decision: 'approve' })).status).toBe(200);

    // "I approved the wrong TV": the app is listed, and its access revoked before the device polls.
    const page = await browser.get('/account/apps');
    expect((await browser.post('/account/apps/revoke', formInputs(page.text.slice(page.text.indexOf(tv.name)), '/account/apps/revoke'))).status).toBe(303);
    const poll = await http(t.url, '/oauth/token', form({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: tv.clientId, device_code: started.body.device_code }));
    expect([poll.status, poll.body.error]).toEqual([400, 'access_denied']);
  });

  it('shows the notice after Revoke access for a minute on the clock, and not after', async () => {
    const clock = new TestClock(t.app);
    try {
      const { client, p, browser } = await setUp();
      await grant(p, browser);
      const form = formInputs((await browser.get('/account/apps')).text, '/account/apps/revoke');
      const revoked = await browser.post('/account/apps/revoke', form);
      clock.advance(59_999);
      expect((await browser.get(revoked.location!)).text).toContain(`<bdi>${client.name}</bdi> no longer has access to your account.`);
      clock.advance(1);
      expect((await browser.get(revoked.location!)).text).not.toContain('no longer has access');
    } finally {
      clock.restore();
    }
  });

  it('shows no notice for a crafted ?revoked= link', async () => {
    const { p, browser } = await setUp();
    await grant(p, browser);
    const crafted = await browser.get(`/account/apps?revoked=${encodeURIComponent(p.client.clientId)}`);
    expect(crafted.text).not.toContain("no longer has access");
  });

  describe('what a user does not own changes nothing (403 page)', () => {
    it("a second user's session replaying the first user's Revoke access form", async () => {
      const ada = await setUp();
      const adaTokens = await grant(ada.p, ada.browser);
      const bob = await setUp();
      const bobTokens = await grant({ ...ada.p, user: bob.owner }, bob.browser);
      const adaForm = formInputs((await ada.browser.get('/account/apps')).text, '/account/apps/revoke');

      const replayed = await bob.browser.post('/account/apps/revoke', adaForm);
      expect(replayed.status).toBe(403);
      expect(replayed.text).toContain('Nothing was changed.');
      expect((await me(t.url, adaTokens.access_token)).status).toBe(200);
      expect((await me(t.url, bobTokens.access_token)).status).toBe(200);
      expect((await events.recent(ada.owner.id)).some((e) => e.type === 'access_revoked')).toBe(false);
      expect((await events.recent(bob.owner.id)).some((e) => e.type === 'access_revoked')).toBe(false);
    });

    it('a valid form naming an application the user never granted', async () => {
      const ada = await setUp();
      const adaTokens = await grant(ada.p, ada.browser);
      const bob = await setUp();
      const bobPage = await bob.browser.get('/account');
      const forged = await bob.browser.post('/account/apps/revoke', { ...formInputs(bobPage.text, '/account/sign-out'), client_id: ada.p.client.clientId });
      expect(forged.status).toBe(403);
      expect(forged.text).toContain('This is not yours, or it no longer exists.');
      expect((await me(t.url, adaTokens.access_token)).status).toBe(200);
    });

    it.each([
      ['no client_id', {}],
      ['an unknown client_id', { client_id: 'no-such-client' }],
      ['an overlong client_id', { client_id: 'x'.repeat(5000) }],
    ])('a form with %s', async (_name, extra) => {
      const ada = await setUp();
      const adaTokens = await grant(ada.p, ada.browser);
      const page = await ada.browser.get('/account/apps');
      const { client_id: _clientId, ...csrf } = formInputs(page.text, '/account/apps/revoke');
      const refused = await ada.browser.post('/account/apps/revoke', { ...csrf, ...extra });
      expect(refused.status).toBe(403);
      expect((await me(t.url, adaTokens.access_token)).status).toBe(200);
    });

    it('a form without the CSRF token, or from another site', async () => {
      const ada = await setUp();
      const adaTokens = await grant(ada.p, ada.browser);
      const form = formInputs((await ada.browser.get('/account/apps')).text, '/account/apps/revoke');
      expect((await ada.browser.post('/account/apps/revoke', { client_id: form.client_id })).status).toBe(403);
      expect((await ada.browser.post('/account/apps/revoke', form, { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' })).status).toBe(403);
      expect((await new BrowserSession(t.url).post('/account/apps/revoke', form)).status).toBe(403);
      expect((await me(t.url, adaTokens.access_token)).status).toBe(200);
    });
  });

  it('records a refresh-token family revoked for reuse as an event of the account, once', async () => {
    const { owner, client, p, browser } = await setUp();
    const issued = await grant(p, browser);
    expect((await refresh(t.url, p, issued.refresh_token)).status).toBe(200);
    const replay = await refresh(t.url, p, issued.refresh_token);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await refresh(t.url, p, issued.refresh_token)).body.error).toBe('invalid_grant');
    const reuse = (await events.recent(owner.id)).filter((e) => e.type === 'refresh_token_reuse');
    expect(reuse).toEqual([{ type: 'refresh_token_reuse', at: expect.any(Number), ip: '127.0.0.1', details: { client: client.name, clientId: client.clientId } }]);
    const account = await browser.get('/account');
    expect(account.text).toContain('because a refresh token was used twice');
  });

  it('records consents given and sign-ins as events of the account', async () => {
    const { owner, client, p, browser } = await setUp();
    await grant(p, browser, 'profile');
    const types = (await events.recent(owner.id)).map((e) => [e.type, e.details.clientId]);
    expect(types).toEqual([
      ['consent_given', client.clientId],
      ['sign_in', undefined],
    ]);
  });
});

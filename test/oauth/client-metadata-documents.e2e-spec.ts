import type * as Tls from 'node:tls';
import * as oauth from 'oauth4webapi';
import { DataSource } from 'typeorm';
import { ClientsRepository } from '../../src/clients/clients.repository';
import { ClientsService } from '../../src/clients/clients.service';
import { ClientMetadataDocuments } from '../../src/clients/metadata-documents/client-metadata-documents.service';
import { TokenPurgeService } from '../../src/purge/token-purge.service';
import { parseEnvironment } from '../../src/config/configuration';
import { DocumentSite, driveDeadlines, mapNames } from '../helpers/client-documents';
import { TestClock } from '../helpers/clock';
import { formInputs } from '../helpers/account';
import { eventually } from '../helpers/eventually';
import { http } from '../helpers/http';
import { authorizePath, BrowserSession, createSignInUser, hiddenInputs, OAuthTestUser, runAuthorization } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

// The module object itself (not an import's frozen namespace), whose connect undici calls.
const tls = require('node:tls') as typeof Tls;

const CALLBACK = 'http://127.0.0.1:9/callback';
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

function document(clientId: string, extra: Record<string, unknown> = {}) {
  return { client_id: clientId, client_name: 'Agent Tool', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', ...extra };
}

function authorizeFor(clientId: string, extra: Record<string, string> = {}) {
  return authorizePath({ response_type: 'code', client_id: clientId, redirect_uri: CALLBACK, scope: 'profile', state: 's1', code_challenge: CHALLENGE, code_challenge_method: 'S256', ...extra });
}

/** What the error page says, its detail (the error_description's words) included. */
function problemOf(html: string): string {
  return html.replace(/<[^>]+>/g, ' ').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ');
}

/**
 * Clients identified by a URL (docs/integrate-with-oauth.md, "Clients identified by a URL";
 * draft-ietf-oauth-client-id-metadata-document): documents served by a site on loopback, which
 * CLIENT_METADATA_ALLOW_LOOPBACK lets a development server fetch; the refusals of SECURITY.md ("SSRF through
 * client metadata", "A malicious client metadata document").
 */
describe('client ID metadata documents', () => {
  let t: TestApp;
  let site: DocumentSite;
  let clock: TestClock;
  let user: OAuthTestUser;
  let deadlines: ReturnType<typeof driveDeadlines>;

  beforeAll(async () => {
    site = await new DocumentSite().start();
    // Many documents from one address: the budget (next suite) out of the way.
    t = await startTestApp({ CLIENT_METADATA_ALLOW_LOOPBACK: 'true', CLIENT_METADATA_FETCHES_PER_HOUR: '1000000' });
    clock = new TestClock(t.app);
    deadlines = driveDeadlines(t.app);
    user = await createSignInUser(t.app);
  });
  afterAll(async () => {
    clock.restore();
    await t.close();
    await site.close();
  });

  it('is announced by both discovery documents', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const res = await http(t.url, path);
      expect(res.body.client_id_metadata_document_supported).toBe(true);
    }
  });

  it('runs the code flow with PKCE for a client_id URL with an off-the-shelf client library, fetching the document once within its max-age', async () => {
    const clientId = site.url('/agents/flow.json');
    site.serve('/agents/flow.json', document(clientId), { 'cache-control': 'max-age=600' });
    const issuer = new URL(t.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const client: oauth.Client = { client_id: clientId };
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: CALLBACK,
      scope: 'profile read:startups',
      state: 'st',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();

    const browser = new BrowserSession(t.url);
    // The consent page: unverified, the redirect host and the client_id's host in full.
    let page = await browser.get(url.toString());
    page = await browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: user.email, password: user.password });
    expect(page.status).toBe(200);
    expect(page.text).toContain('unverified');
    expect(page.text).toContain(`127.0.0.1:${site.port}`);
    expect(page.text).toMatch(/id="client-id-host"/);
    expect(page.text).toContain('Agent Tool');

    const callback = await runAuthorization(browser, url.toString(), user);
    const params = oauth.validateAuthResponse(as, client, callback, 'st');
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK, verifier, insecure));
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'profile read:startups' });
    const me = await http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);

    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    // Revocation (RFC 7009) with client authentication none, as for any public client.
    const revoked = await oauth.revocationRequest(as, client, oauth.None(), refreshed.access_token, insecure);
    expect(revoked.status).toBe(200);
    expect((await http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${refreshed.access_token}` } })).status).toBe(401);

    // The account's connected applications list it like any other, by its name and its client_id URL, and revoke it.
    const apps = await browser.get('/account/apps');
    expect(apps.text).toContain('<bdi>Agent Tool</bdi>');
    expect(apps.text).toContain(`<code>${clientId}</code>`);
    const form = formInputs(apps.text.slice(apps.text.indexOf('Agent Tool')), '/account/apps/revoke');
    expect(form.client_id).toBe(clientId);
    const gone = await browser.post('/account/apps/revoke', form);
    expect([gone.status, gone.location]).toEqual([303, `/account/apps?revoked=${encodeURIComponent(clientId)}`]);
    const dead = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure);
    expect([dead.status, ((await dead.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    // Authorize twice, the sign-in, the consent, the code, the refreshes and the revocation: one fetch.
    expect(site.fetched('/agents/flow.json')).toBe(1);

    // Past max-age, the next request fetches it again.
    clock.advance(601_000);
    const again = await new BrowserSession(t.url).get(authorizeFor(clientId));
    expect(again.status).toBe(200);
    expect(site.fetched('/agents/flow.json')).toBe(2);
  });

  it('keeps a document at least 5 minutes whatever its Cache-Control says, and at most 24 hours', async () => {
    const short = site.url('/agents/no-store.json');
    site.serve('/agents/no-store.json', document(short), { 'cache-control': 'no-store' });
    const long = site.url('/agents/year.json');
    site.serve('/agents/year.json', document(long), { 'cache-control': 'max-age=31536000' });
    for (const id of [short, long]) expect((await new BrowserSession(t.url).get(authorizeFor(id))).status).toBe(200);
    clock.advance(299_000);
    for (const id of [short, long]) await new BrowserSession(t.url).get(authorizeFor(id));
    expect([site.fetched('/agents/no-store.json'), site.fetched('/agents/year.json')]).toEqual([1, 1]);
    clock.advance(2_000);
    await new BrowserSession(t.url).get(authorizeFor(short));
    expect(site.fetched('/agents/no-store.json')).toBe(2);
    clock.advance(24 * 3600_000);
    await new BrowserSession(t.url).get(authorizeFor(long));
    expect(site.fetched('/agents/year.json')).toBe(2);
  });

  it('asks the user again once a new document names a redirect URI the last one did not', async () => {
    const id = site.url('/agents/moving.json');
    site.serve('/agents/moving.json', document(id), { 'cache-control': 'no-store' });
    const browser = new BrowserSession(t.url);
    expect((await runAuthorization(browser, `${t.url}${authorizeFor(id)}`, user)).searchParams.get('code')).toBeTruthy();
    const silent = await browser.get(authorizeFor(id, { prompt: 'none' }));
    expect(new URL(silent.location!).searchParams.has('code')).toBe(true);

    const added = 'https://agents.example/callback';
    site.serve('/agents/moving.json', document(id, { redirect_uris: [CALLBACK, added] }), { 'cache-control': 'no-store' });
    clock.advance(301_000); // past the 5 minutes a document is kept: the next request fetches the new one
    const tried = await browser.get(authorizeFor(id, { prompt: 'none', redirect_uri: added }));
    expect([tried.status, tried.location ?? '']).toEqual([400, '']);
    expect((await browser.get(authorizeFor(id, { redirect_uri: added }))).text).toContain('name="decision"');
    expect(site.fetched('/agents/moving.json')).toBe(2);
  });

  it('cannot be vouched for by the operator (clients:verify): its next document could name anything', async () => {
    const id = site.url('/agents/vouched.json');
    site.serve('/agents/vouched.json', document(id), { 'cache-control': 'max-age=300' });
    expect((await new BrowserSession(t.url).get(authorizeFor(id))).status).toBe(200);
    const clients = t.app.get(ClientsService, { strict: false });
    await expect(clients.setVerified(id, true)).rejects.toThrow(`Client ${id} is known by its metadata document and is always unverified; nothing changed`);
    expect((await t.app.get(ClientsRepository, { strict: false }).findByClientId(id))?.verified).toBe(false);
    const page = await new BrowserSession(t.url).get(authorizeFor(id));
    expect(page.text).toContain('unverified');
    // Unverifying one changes nothing and is allowed.
    expect((await clients.setVerified(id, false)).verified).toBe(false);
  });

  it('purges a document client no user allowed a day after its last fetch, and keeps one a user allowed', async () => {
    const unused = site.url('/agents/unused.json');
    site.serve('/agents/unused.json', document(unused), { 'cache-control': 'max-age=300' });
    const allowed = site.url('/agents/allowed.json');
    site.serve('/agents/allowed.json', document(allowed), { 'cache-control': 'max-age=300' });
    expect((await new BrowserSession(t.url).get(authorizeFor(unused))).status).toBe(200);
    const back = await runAuthorization(new BrowserSession(t.url), authorizeFor(allowed), user);
    expect(back.searchParams.get('code')).toBeTruthy();
    const clients = t.app.get(ClientsRepository, { strict: false });
    const purge = t.app.get(TokenPurgeService, { strict: false });
    // (Rows of the suite's other tests, never allowed, go with these purges too: the rows are what is checked.)
    clock.advance(86_400_000 - 1);
    await purge.purge(clock.now());
    expect((await clients.findByClientId(unused))?.clientId).toBe(unused);
    clock.advance(1);
    expect((await purge.purge(clock.now())).unusedRegistrations).toBeGreaterThan(0);
    expect([await clients.findByClientId(unused), (await clients.findByClientId(allowed))?.clientId]).toEqual([null, allowed]);
    // The next use writes the row again from the document.
    expect((await new BrowserSession(t.url).get(authorizeFor(unused))).status).toBe(200);
    expect((await clients.findByClientId(unused))?.source).toBe('metadata_document');
  });

  it('never keeps an error: the next request fetches again', async () => {
    const clientId = site.url('/agents/flaky.json');
    let failing = true;
    site.handlers.set('/agents/flaky.json', (_req, res) => {
      if (failing) res.writeHead(500, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' }).end(JSON.stringify(document(clientId)));
    });
    const first = await new BrowserSession(t.url).get(authorizeFor(clientId));
    expect([first.status, first.location]).toEqual([400, undefined]);
    failing = false;
    const second = await new BrowserSession(t.url).get(authorizeFor(clientId));
    expect(second.status).toBe(200);
    expect(site.fetched('/agents/flaky.json')).toBe(2);
  });

  it('fetches once for thirty simultaneous first requests', async () => {
    const clientId = site.url('/agents/thirty.json');
    const release: Array<() => void> = [];
    site.handlers.set('/agents/thirty.json', (_req, res) => {
      release.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document(clientId))));
    });
    const resolves = jest.spyOn(t.app.get(ClientMetadataDocuments), 'resolve');
    const pages = Array.from({ length: 30 }, () => new BrowserSession(t.url).get(authorizeFor(clientId)));
    // Every request has asked for the client while the one fetch waits for its answer.
    await eventually(async () => (resolves.mock.calls.filter(([id]) => id === clientId).length === 30 && release.length === 1) || null);
    release[0]();
    expect((await Promise.all(pages)).map((p) => p.status)).toEqual(Array(30).fill(200));
    expect(site.fetched('/agents/thirty.json')).toBe(1);
    resolves.mockRestore();
  });

  describe('refuses a document, with a page and no redirect', () => {
    const cases: Array<{ name: string; path: string; setup: (id: string) => void; says: RegExp }> = [
      {
        name: 'behind a redirect (not followed)',
        path: '/agents/moved.json',
        setup: (id) => {
          site.serve('/agents/target.json', document(id));
          site.handlers.set('/agents/moved.json', (_req, res) => res.writeHead(302, { location: site.url('/agents/target.json') }).end());
        },
        says: /answered HTTP 302, not 200 \(redirects are not followed/,
      },
      { name: 'missing (404)', path: '/agents/missing.json', setup: () => undefined, says: /answered HTTP 404, not 200/ },
      {
        name: 'served as text/html',
        path: '/agents/html.json',
        setup: (id) => site.handlers.set('/agents/html.json', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(JSON.stringify(document(id)))),
        says: /content type text\/html, not application\/json/,
      },
      {
        // docs/integrate-with-oauth.md: `application/json` itself, not a type that merely ends in +json.
        name: 'served as application/ld+json',
        path: '/agents/ld.json',
        setup: (id) => site.handlers.set('/agents/ld.json', (_req, res) => res.writeHead(200, { 'content-type': 'application/ld+json' }).end(JSON.stringify(document(id)))),
        says: /content type application\/ld\+json, not application\/json/,
      },
      {
        name: 'larger than 5 KB (declared)',
        path: '/agents/large.json',
        setup: (id) => site.serve('/agents/large.json', document(id, { padding: 'x'.repeat(5200) })),
        says: /larger than 5120 bytes/,
      },
      {
        name: 'larger than 5 KB (streamed without a length)',
        path: '/agents/stream.json',
        setup: (id) =>
          site.handlers.set('/agents/stream.json', (_req, res) => {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.write(JSON.stringify(document(id)).slice(0, -1));
            res.write(`,"padding":"${'y'.repeat(6000)}"}`);
            res.end();
          }),
        says: /larger than 5120 bytes/,
      },
      { name: 'whose client_id is another URL', path: '/agents/other.json', setup: () => site.serve('/agents/other.json', document(site.url('/agents/elsewhere.json'))), says: /is not the URL it was fetched from/ },
      {
        name: 'without redirect_uris',
        path: '/agents/no-uris.json',
        setup: (id) => site.serve('/agents/no-uris.json', { client_id: id, client_name: 'No URIs', token_endpoint_auth_method: 'none' }),
        says: /must list its redirect_uris/,
      },
      {
        name: 'with a redirect URI the portal refuses',
        path: '/agents/bad-uri.json',
        setup: (id) => site.serve('/agents/bad-uri.json', document(id, { redirect_uris: ['http://evil.example/cb'] })),
        says: /http is allowed only for localhost/,
      },
      {
        name: 'with a secret-based client authentication',
        path: '/agents/secret.json',
        setup: (id) => site.serve('/agents/secret.json', document(id, { token_endpoint_auth_method: 'client_secret_basic' })),
        says: /token_endpoint_auth_method must be none/,
      },
      {
        name: "whose name looks like the platform's",
        path: '/agents/lookalike.json',
        setup: (id) => site.serve('/agents/lookalike.json', document(id, { client_name: 'Startup Platfоrm' })),
        says: /looks like the platform's own name|mixes Latin and Cyrillic/,
      },
      {
        name: 'whose name mixes scripts in a word',
        path: '/agents/mixed.json',
        setup: (id) => site.serve('/agents/mixed.json', document(id, { client_name: 'Gооgle Drive' })),
        says: /mixes Latin and Cyrillic/,
      },
    ];

    it.each(cases)('$name', async ({ path, setup, says }) => {
      const clientId = site.url(path);
      setup(clientId);
      const res = await new BrowserSession(t.url).get(authorizeFor(clientId));
      expect(res.status).toBe(400);
      expect(res.location).toBeUndefined();
      expect(problemOf(res.text)).toMatch(says);
      // Never redirected to, never fetched at the token endpoint either: invalid_client with the reason.
      const token = await http(t.url, '/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', redirect_uri: CALLBACK, code_verifier: 'v'.repeat(43), client_id: clientId }).toString(),
      });
      expect(token.status).toBe(401);
      expect(token.body.error).toBe('invalid_client');
      expect(token.body.error_description).toMatch(says);
    });

    it('of a site that answers nothing within 5 seconds', async () => {
      const clientId = site.url('/agents/slow.json');
      site.handlers.set('/agents/slow.json', () => undefined);
      const before = deadlines.started;
      const pending = new BrowserSession(t.url).get(authorizeFor(clientId));
      await eventually(async () => (site.fetched('/agents/slow.json') === 1 && deadlines.started > before) || null);
      deadlines.fireAll();
      const res = await pending;
      expect([res.status, res.location]).toEqual([400, undefined]);
      expect(problemOf(res.text)).toMatch(/was not received within 5 seconds/);
    });
  });

  it('refuses a secret for a client_id URL before fetching anything', async () => {
    const clientId = site.url('/agents/never.json');
    const res = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: clientId, client_secret: 'guess' }).toString(),
    });
    expect([res.status, res.body.error]).toEqual([401, 'invalid_client']);
    expect(site.fetched('/agents/never.json')).toBe(0);
  });

  it('takes a pushed authorization request (RFC 9126) from such a client, authenticated with none', async () => {
    const clientId = site.url('/agents/par.json');
    site.serve('/agents/par.json', document(clientId));
    const pushed = await http(t.url, '/oauth/par', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: CALLBACK, scope: 'profile', state: 's', code_challenge: CHALLENGE, code_challenge_method: 'S256' }).toString(),
    });
    expect(pushed.status).toBe(201);
    const page = await new BrowserSession(t.url).get(authorizePath({ client_id: clientId, request_uri: pushed.body.request_uri }));
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="password"');
    // A redirect URI its document does not list is refused at the push, as for any client.
    const refused = await http(t.url, '/oauth/par', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: 'https://elsewhere.example/cb', code_challenge: CHALLENGE, code_challenge_method: 'S256' }).toString(),
    });
    expect([refused.status, refused.body.error]).toEqual([400, 'invalid_request']);
    expect(site.fetched('/agents/par.json')).toBe(1);
  });

  it('gives such a client no device flow', async () => {
    const clientId = site.url('/agents/device.json');
    site.serve('/agents/device.json', document(clientId));
    const res = await http(t.url, '/oauth/device_authorization', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, scope: 'profile' }).toString(),
    });
    expect([res.status, res.body.error]).toEqual([400, 'unauthorized_client']);
  });
});

describe('client ID metadata documents: no fetch from special-use addresses (SSRF)', () => {
  let t: TestApp;
  let site: DocumentSite;
  let deadlines: ReturnType<typeof driveDeadlines>;

  beforeAll(async () => {
    site = await new DocumentSite().start();
    t = await startTestApp();
    deadlines = driveDeadlines(t.app);
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  it.each([
    ['loopback', 'loopback.agents.example', '127.0.0.1'],
    ['private', 'private.agents.example', '10.1.2.3'],
    ['link-local (cloud metadata)', 'metadata.agents.example', '169.254.169.254'],
    ['IPv6 loopback', 'v6.agents.example', '::1'],
    ['IPv4-mapped IPv6 loopback', 'mapped.agents.example', '::ffff:127.0.0.1'],
    ['carrier-grade NAT', 'cgnat.agents.example', '100.64.0.1'],
  ])('refuses a name that resolves to a %s address, without connecting', async (_kind, host, address) => {
    mapNames(t.app, { [host]: address });
    const clientId = `https://${host}:${site.port}/client.json`;
    const res = await new BrowserSession(t.url).get(authorizeFor(clientId));
    expect([res.status, res.location]).toEqual([400, undefined]);
    expect(problemOf(res.text)).toContain(`host ${host} of the client_id does not resolve to public addresses only`);
    // What the server's resolver answered is not told.
    expect(res.text).not.toContain(address);
    expect(site.connections).toBe(0);
  });

  it('refuses a name with one internal address among public ones', async () => {
    mapNames(t.app, { 'mixed.agents.example': ['93.184.216.34', '127.0.0.1'] });
    const res = await new BrowserSession(t.url).get(authorizeFor(`https://mixed.agents.example:${site.port}/client.json`));
    expect(problemOf(res.text)).toContain('does not resolve to public addresses only');
    expect(site.connections).toBe(0);
  });

  it('says the same of a name that does not resolve, so that no internal name is told apart', async () => {
    mapNames(t.app, {});
    const res = await new BrowserSession(t.url).get(authorizeFor('https://nowhere.agents.example/client.json'));
    expect(problemOf(res.text)).toContain('The host nowhere.agents.example of the client_id does not resolve to public addresses only');
  });

  it('refuses IP literals and plain http without CLIENT_METADATA_ALLOW_LOOPBACK', async () => {
    for (const [clientId, says] of [
      [`https://127.0.0.1:${site.port}/client.json`, 'does not resolve to public addresses only'],
      [`https://[::1]:${site.port}/client.json`, 'does not resolve to public addresses only'],
      [site.url('/client.json'), 'must use https'],
    ]) {
      const res = await new BrowserSession(t.url).get(authorizeFor(clientId));
      expect(res.status).toBe(400);
      expect(problemOf(res.text)).toContain(says);
    }
    expect(site.connections).toBe(0);
  });

  it('connects to the address it checked, never to a later DNS answer (rebinding)', async () => {
    // "localhost" is loopback to the system's resolver; the injected resolver first calls it public.
    const { calls } = mapNames(t.app, { localhost: [[{ address: '93.184.216.34', family: 4 }], [{ address: '127.0.0.1', family: 4 }]] });
    const connects: Array<{ host?: string; pinned?: string }> = [];
    const realConnect = tls.connect;
    const spy = jest.spyOn(tls, 'connect').mockImplementation(((options: Tls.ConnectionOptions) => {
      // What the connector is handed: the host name and the address its lookup answers with.
      let pinned: string | undefined;
      options.lookup?.('localhost', { all: true }, ((_e: unknown, answer: string | Array<{ address: string }>) => {
        pinned = Array.isArray(answer) ? answer[0].address : answer;
      }) as never);
      connects.push({ host: options.host, pinned });
      // Nothing real is reached: a port on loopback that nobody listens on.
      return realConnect({ ...options, host: '127.0.0.1', port: 9, lookup: undefined });
    }) as typeof tls.connect);
    try {
      const clientId = `https://localhost:${site.port}/client.json`;
      const first = await new BrowserSession(t.url).get(authorizeFor(clientId));
      expect(first.status).toBe(400);
      expect(connects).toEqual([{ host: 'localhost', pinned: '93.184.216.34' }]);
      // The second answer is loopback: refused before any connection.
      const second = await new BrowserSession(t.url).get(authorizeFor(clientId));
      expect(problemOf(second.text)).toContain('does not resolve to public addresses only');
      expect(connects).toHaveLength(1);
      expect(calls).toEqual(['localhost', 'localhost']);
      expect(site.connections).toBe(0);
    } finally {
      spy.mockRestore();
      deadlines.fireAll();
    }
  });
});

/**
 * The fetch budget of an address (SECURITY.md, "SSRF through client metadata"): without it, anyone could
 * have the service fetch, and store the rows of, as many documents as they can name.
 */
describe('client ID metadata documents: CLIENT_METADATA_FETCHES_PER_HOUR', () => {
  let t: TestApp;
  let site: DocumentSite;
  let clock: TestClock;

  beforeAll(async () => {
    site = await new DocumentSite().start();
    t = await startTestApp({ CLIENT_METADATA_ALLOW_LOOPBACK: 'true', CLIENT_METADATA_FETCHES_PER_HOUR: '3', TRUST_PROXY: 'true' });
    clock = new TestClock(t.app);
  });
  afterAll(async () => {
    clock.restore();
    await t.close();
    await site.close();
  });

  const path = (i: number) => `/budget/${i}.json`;
  const clientRows = async () => Number((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM oauth_clients'))[0].n);
  const authorizeFrom = (ip: string, i: number) => http(t.url, authorizeFor(site.url(path(i))), { headers: { 'x-forwarded-for': ip } });

  it('fetches that many documents an hour for the requests of one address, then none, and counts another address apart', async () => {
    for (let i = 1; i <= 6; i++) site.serve(path(i), document(site.url(path(i))), { 'cache-control': 'max-age=60' });
    const rowsBefore = await clientRows();
    for (let i = 1; i <= 3; i++) expect((await authorizeFrom('198.51.100.7', i)).status).toBe(200);
    // A document kept from a recent fetch costs nothing.
    expect((await authorizeFrom('198.51.100.7', 1)).status).toBe(200);
    expect(site.fetched(path(1))).toBe(1);

    // The fourth document: the authorization page says why, and nothing is fetched or stored.
    const refused = await authorizeFrom('198.51.100.7', 4);
    expect(refused.status).toBe(400);
    expect(problemOf(refused.text)).toContain('Too many client metadata documents were fetched for requests from this address in the last hour');
    // The token endpoint: 429 with Retry-After, as every limit.
    const token = await http(t.url, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.7' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: site.url(path(5)), redirect_uri: CALLBACK, code_verifier: 'v'.repeat(43) }).toString(),
    });
    expect([token.status, token.body.error]).toEqual([429, 'invalid_request']);
    expect(Number(token.headers.get('retry-after'))).toBeGreaterThan(0);
    expect([site.fetched(path(4)), site.fetched(path(5))]).toEqual([0, 0]);
    expect(await clientRows()).toBe(rowsBefore + 3);

    // Another address has its own budget.
    expect((await authorizeFrom('198.51.100.8', 4)).status).toBe(200);
    expect(site.fetched(path(4))).toBe(1);

    // An hour later the first address may again.
    clock.advance(3_600_000);
    expect((await authorizeFrom('198.51.100.7', 5)).status).toBe(200);
    expect(site.fetched(path(5))).toBe(1);
  });

  it('lets 10 simultaneous requests for new documents from one address fetch only that many', async () => {
    for (let i = 11; i <= 20; i++) site.serve(path(i), document(site.url(path(i))));
    const answers = await Promise.all(Array.from({ length: 10 }, (_, k) => authorizeFrom('203.0.113.9', 11 + k)));
    expect(answers.filter((res) => res.status === 200)).toHaveLength(3);
    expect(Array.from({ length: 10 }, (_, k) => site.fetched(path(11 + k))).reduce((a, b) => a + b, 0)).toBe(3);
  });
});

describe('CLIENT_METADATA_ALLOW_LOOPBACK', () => {
  it('is refused with NODE_ENV=production', () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32), KEY_ENCRYPTION_SECRET: 'k'.repeat(32) };
    expect(() => parseEnvironment({ ...production, CLIENT_METADATA_ALLOW_LOOPBACK: 'true' })).toThrow(/CLIENT_METADATA_ALLOW_LOOPBACK=true is for development only and is refused when NODE_ENV=production/);
    expect(parseEnvironment(production).auth.clientMetadataAllowLoopback).toBe(false);
  });

  it('refuses to start the service with it in production', async () => {
    await expect(startTestApp({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32), KEY_ENCRYPTION_SECRET: 'k'.repeat(32), CLIENT_METADATA_ALLOW_LOOPBACK: 'true' })).rejects.toThrow(
      /CLIENT_METADATA_ALLOW_LOOPBACK/,
    );
  });
});

import { randomBytes } from 'node:crypto';
import { http } from '../helpers/http';
import { authorizePath, basicAuth, BrowserSession, hiddenInputs } from '../helpers/oauth';
import { introspect, me, provision, redeem, refresh, revoke, VERIFIER } from '../helpers/flows';
import { runCli, ServiceProcess, startService, waitForOutput } from '../helpers/processes';
import { queryStorage } from '../helpers/storage-query';
import { freePort, isolatedStorage } from '../helpers/test-app';
import { s256Challenge } from '../../src/oauth/pkce';
import { KeyEncryption, signingKeyAad } from '../../src/oidc/keys/key-encryption';

/**
 * No secret in any log line, error body, the OpenAPI document or the database (SECURITY.md): a full OAuth flow and
 * the public API are driven against the built service with its output captured, at the default log
 * level and at `trace`, with the failures an attacker or a broken client would cause along the way.
 * Every secret the run handles is collected and searched for, whole and by its random part: the ID-token
 * signing keys' private members too, also in the JWKS and the output of the `keys:*` commands.
 */
const SESSION_SECRET = 'session secret that must never be printed 0123456789';
const KEY_ENCRYPTION_SECRET = 'key encryption secret that must never be printed 0123456789';
// RFC 7518 §6.2.2 and §6.3.2: the private members of an EC and an RSA JWK.
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const;

describe.each(['info', 'trace'])('secrets stay out of logs, error bodies, the reference and the database (LOG_LEVEL=%s)', (level) => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let service: ServiceProcess;
  const secrets = new Map<string, string>();
  // Secrets a page hands back to the same browser by design (the CSRF token in a re-rendered form).
  const pageSecrets = new Set<string>();
  const errorBodies: Array<{ status: number; text: string }> = [];
  let demo: { password: string; key: string };

  const keep = (what: string, value: string | undefined | null) => {
    if (!value) throw new Error(`no ${what} to keep`);
    secrets.set(`${what} #${secrets.size}`, value);
    return value;
  };
  const failed = <R extends { status: number; text: string }>(res: R) => {
    if (res.status >= 400) errorBodies.push(res);
    return res;
  };

  beforeAll(async () => {
    storage = await isolatedStorage();
    // Demo data on: its credentials are printed once, as a banner, and must appear nowhere else.
    service = await startService({ ...storage.env, LOG_LEVEL: level, SEED_DEMO_DATA: 'true', SESSION_SECRET, KEY_ENCRYPTION_SECRET, RATE_LIMIT_ANONYMOUS: '1000' }, await freePort());
    const banner = service.output();
    demo = {
      password: /Sign in as\s+\S+\s+\/\s+(\S+)/.exec(banner)![1],
      key: /API key\s+(sp_key_\S+)/.exec(banner)![1],
    };
    keep('demo password', demo.password);
    keep('demo API key', demo.key);
    keep('session secret', SESSION_SECRET);
    keep('key encryption secret', KEY_ENCRYPTION_SECRET);
  }, 300_000);
  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
    await storage?.drop();
  });

  it('runs a full flow, with failures, and finds no secret where it must not be', async () => {
    const base = service.url;
    const p = await provision(storage.env);
    keep('password', p.user.password);
    keep('client secret', p.client.clientSecret);
    keep('code verifier', VERIFIER);
    const apiKey = keep('API key', (await runCli(['api-keys:create', '--name', 'secrets suite', '--json'], storage.env)).json.key);

    // Sign-in: a wrong password first, then the right one; consent; the code comes back in the Location.
    const browser = new BrowserSession(base);
    const url = authorizePath({
      response_type: 'code',
      client_id: p.client.clientId,
      redirect_uri: p.client.redirectUri,
      scope: 'profile read:startups',
      state: 'state-value',
      code_challenge: s256Challenge(VERIFIER),
      code_challenge_method: 'S256',
    });
    let page = await browser.get(url);
    const form = hiddenInputs(page.text);
    pageSecrets.add(keep('CSRF token', form.csrf_token));
    failed(await browser.post('/oauth/sign-in', { ...form, email: p.user.email, password: `${p.user.password}-wrong` }));
    keep('wrong password', `${p.user.password}-wrong`);
    page = await browser.post('/oauth/sign-in', { ...form, email: p.user.email, password: p.user.password });
    keep('session cookie', browser.cookies.get('sp_session'));
    page = await browser.post('/oauth/consent', { ...hiddenInputs(page.text), decision: 'approve' });
    const code = keep('code', new URL(page.location!).searchParams.get('code'));

    // Token endpoint: a wrong secret, a wrong verifier, then the real exchange with client_secret_post.
    const post = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
      http(base, path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body).toString() });
    keep('wrong client secret', `${p.client.clientSecret}x`);
    failed(await post('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: p.client.redirectUri, code_verifier: VERIFIER }, { authorization: basicAuth(p.client.clientId, `${p.client.clientSecret}x`) }));
    failed(await post('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: p.client.redirectUri, code_verifier: `${VERIFIER}0`, client_id: p.client.clientId, client_secret: p.client.clientSecret }));
    // That verifier failure did not consume the code; a code fails only on a second redemption.
    const issued = await post('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: p.client.redirectUri, code_verifier: VERIFIER, client_id: p.client.clientId, client_secret: p.client.clientSecret });
    expect(issued.status).toBe(200);
    keep('access token', issued.body.access_token);
    keep('refresh token', issued.body.refresh_token);

    // The public API: Bearer, API key, a token in the query string (refused, and not logged either).
    expect((await me(base, issued.body.access_token)).status).toBe(200);
    expect((await http(base, '/api/public/v1/industries', { headers: { 'x-api-key': apiKey } })).status).toBe(200);
    expect((await http(base, '/api/public/v1/industries', { headers: { 'x-api-key': demo.key } })).status).toBe(200);
    failed(await http(base, `/api/public/v1/me?access_token=${issued.body.access_token}`));
    failed(await http(base, '/api/public/v1/industries', { headers: { 'x-api-key': `${apiKey}x` } }));
    failed(await me(base, `${issued.body.access_token}x`));
    failed(await http(base, `/oauth/token?code=${code}&client_secret=${p.client.clientSecret}`));

    // Refresh, introspect, revoke, and a replay of the retired refresh token.
    const rotated = await refresh(base, p, issued.body.refresh_token);
    keep('access token', rotated.body.access_token);
    keep('refresh token', rotated.body.refresh_token);
    expect((await introspect(base, p, rotated.body.access_token)).body.active).toBe(true);
    failed(await refresh(base, p, issued.body.refresh_token));
    expect((await revoke(base, p, rotated.body.refresh_token)).status).toBe(200);
    failed(await me(base, rotated.body.access_token));
    // And the code a second time.
    failed(await redeem(base, p, code));

    // A client that registers itself (RFC 7591): its secret and registration access token, then its management (RFC 7592) with a wrong token.
    const registered = await http(base, '/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Secrets Agent', redirect_uris: ['https://agent.example/cb'] }),
    });
    expect(registered.status).toBe(201);
    keep('registered client secret', registered.body.client_secret);
    const registrationToken = keep('registration access token', registered.body.registration_access_token);
    keep('wrong registration access token', `${registrationToken}x`);
    failed(await http(base, `/oauth/register/${registered.body.client_id}`, { headers: { authorization: `Bearer ${registrationToken}x` } }));
    expect((await http(base, `/oauth/register/${registered.body.client_id}`, { headers: { authorization: `Bearer ${registrationToken}` } })).status).toBe(200);

    // The signing keys: rotated with the CLI (its output searched like the log), served, asked wrongly.
    const rotation = await runCli(['keys:rotate', '--json'], { ...storage.env, KEY_ENCRYPTION_SECRET });
    expect(rotation.status).toBe(0);
    const refused = await runCli(['keys:rotate', '--json'], { ...storage.env, KEY_ENCRYPTION_SECRET: `${KEY_ENCRYPTION_SECRET}, but another one` });
    expect(refused.status).toBe(1);
    const listed = await runCli(['keys:list'], storage.env);
    const cliOutput = [rotation, refused, listed].map((r) => `${r.stdout}${r.stderr}`).join('\n');
    // A running instance rereads its keys every few seconds (docs/integrate-with-oauth.md, OpenID Connect: within 10 s of a rotation).
    // Waited for, not timed: the bound is checked on the app's Clock in test/oidc/signing-keys.e2e-spec.ts.
    let jwks = await http(base, '/oauth/jwks');
    while (jwks.body.keys.length < 4) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      jwks = await http(base, '/oauth/jwks');
    }
    expect(jwks.body.keys).toHaveLength(4);
    failed(await http(base, '/oauth/jwks', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'd=1' }));
    const keyRows = await queryStorage<{ kid: string; alg: 'RS256' | 'ES256'; private_key: string }>(storage.env, 'SELECT kid, alg, private_key FROM signing_keys');
    expect(keyRows).toHaveLength(4);
    const encryption = new KeyEncryption(KEY_ENCRYPTION_SECRET);
    for (const row of keyRows) {
      const privateJwk = JSON.parse(encryption.decrypt(row.private_key, signingKeyAad(row.kid, row.alg))) as Record<string, string>;
      for (const member of PRIVATE_MEMBERS) if (privateJwk[member]) keep(`${row.alg} private key member ${member}`, privateJwk[member]);
    }

    // The reference, as served, with the demo data in place; and the JWKS, public by design.
    const reference = [(await http(base, '/docs-json')).text, (await http(base, '/docs/swagger-ui-init.js')).text, (await http(base, '/docs')).text, jwks.text, cliOutput];
    expect(reference[0]).toContain('"openapi"');

    // Every line of those requests is out once the line of a last request is: waited for, not timed.
    const flush = `flush${randomBytes(6).toString('hex')}`;
    await (await fetch(`${base}/oauth/logout?client_id=${flush}`)).arrayBuffer();
    await waitForOutput(service, flush);
    const output = service.output();
    const logLines = output.split('\n').filter((line) => line.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(20);
    // The per-request log line is there, at every level this suite runs.
    expect(logLines.some((line) => line.includes('"msg":"request completed"'))).toBe(true);

    for (const [what, value] of secrets) {
      // The whole secret, and its random part alone (a prefix stripped, or a value cut short).
      const needles = [value, value.replace(/^sp_[a-z]+_/, '').slice(0, 16)].filter((n) => n.length >= 8);
      for (const needle of needles) {
        expect([what, 'log', logLines.filter((line) => line.includes(needle))]).toEqual([what, 'log', []]);
        const inBodies = pageSecrets.has(value) ? [] : errorBodies.filter((res) => res.text.includes(needle)).map((r) => r.text);
        expect([what, 'error bodies', inBodies]).toEqual([what, 'error bodies', []]);
        expect([what, 'reference, JWKS or CLI output', reference.some((text) => text.includes(needle))]).toEqual([what, 'reference, JWKS or CLI output', false]);
      }
    }
    // At rest: every table, every column, holds no secret in the clear (hashes only, SECURITY.md).
    const tables = ['users', 'api_keys', 'oauth_clients', 'oauth_authorization_codes', 'oauth_refresh_tokens', 'oauth_access_tokens', 'oauth_consents', 'sign_in_throttles', 'signing_keys'];
    const stored = JSON.stringify(await Promise.all(tables.map((table) => queryStorage(storage.env, `SELECT * FROM ${table}`))));
    expect(stored).toContain(p.user.email);
    for (const [what, value] of secrets) {
      const needles = [value, value.replace(/^sp_[a-z]+_/, '').slice(0, 16)].filter((n) => n.length >= 8);
      for (const needle of needles) expect([what, 'database', stored.includes(needle)]).toEqual([what, 'database', false]);
    }

    // The demo credentials: shown once, in the banner, and nowhere else in the output.
    for (const value of [demo.password, demo.key]) expect(output.split(value).length - 1).toBe(1);
    expect(errorBodies.length).toBeGreaterThanOrEqual(10);
  }, 120_000);
});

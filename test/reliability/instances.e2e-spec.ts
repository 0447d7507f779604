import { formInputs, signInAt } from '../helpers/account';
import { http, HttpResponse } from '../helpers/http';
import { authorizePath, BrowserSession, hiddenInputs } from '../helpers/oauth';
import { authorizationCode, introspect, me, provision, Provisioned, redeem, refresh, revoke, tokens, VERIFIER } from '../helpers/flows';
import { ServiceProcess, startService } from '../helpers/processes';
import { engine, freePort, isolatedStorage } from '../helpers/test-app';
import { s256Challenge } from '../../src/oauth/pkce';

/**
 * Scale-out (docs/integrate-with-oauth.md; docs/configuration-and-deployment.md): two service processes, as deployed, on one PostgreSQL schema and one
 * Redis key prefix, with no sticky sessions. Whatever one instance starts, the other continues; what
 * must happen once happens once across both; the rate-limit counters are one.
 *
 * Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (SQLite is one file of one host).
 */
const PARALLEL = 12;
const ANONYMOUS_LIMIT = 10;
// A short-lived token-lookup cache may keep a revoked token usable on another instance for at most
// its TTL; the suite sets a short one (no cache: the revocation is immediate).
const TOKEN_CACHE_TTL_MS = 1000;

/**
 * Asks for /me with `token` until the instance refuses it, and returns that status. It waits for the
 * refusal, not for a time: a cache that never forgets fails the test by its timeout.
 */
async function untilRefused(base: string, token: string): Promise<number> {
  for (;;) {
    const { status } = await me(base, token);
    if (status !== 200) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const shared = engine() === 'postgres' && process.env.TEST_REDIS_URL ? describe : describe.skip;

shared('two instances on one PostgreSQL and one Redis', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let p: Provisioned;

  beforeAll(async () => {
    storage = await isolatedStorage();
    p = await provision(storage.env);
    const env = {
      ...storage.env,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      // One secret seals the sign-in session cookie on every instance.
      SESSION_SECRET: 'one secret for every instance, 32+ characters long',
      // And one decrypts the ID-token signing keys they share.
      KEY_ENCRYPTION_SECRET: 'one key encryption secret for every instance, 32+ characters',
      RATE_LIMIT_ANONYMOUS: String(ANONYMOUS_LIMIT),
      TOKEN_CACHE_TTL_MS: String(TOKEN_CACHE_TTL_MS),
    };
    [a, b] = await Promise.all([startService(env, await freePort()), startService(env, await freePort())]);
  }, 300_000);
  afterAll(async () => {
    for (const service of [a, b]) service?.child.kill('SIGTERM');
    expect(await a?.exited).toBe(0);
    expect(await b?.exited).toBe(0);
    await storage?.drop();
  });

  const on = (i: number) => (i % 2 === 0 ? a : b).url;

  it('redeems on one instance a code the other issued, and each honours the tokens of the other', async () => {
    const code = await authorizationCode(new BrowserSession(a.url), p);
    const res = await redeem(b.url, p, code);
    expect(res.status).toBe(200);
    expect((await me(a.url, res.body.access_token)).status).toBe(200);
    expect((await me(b.url, res.body.access_token)).status).toBe(200);
    const rotated = await refresh(a.url, p, res.body.refresh_token);
    expect(rotated.status).toBe(200);
    expect((await introspect(b.url, p, rotated.body.refresh_token)).body.active).toBe(true);
  });

  it.each([1, 2, 3])(`lets exactly one of ${PARALLEL} redemptions of one code, spread over both, succeed (round %i)`, async () => {
    const code = await authorizationCode(new BrowserSession(a.url), p);
    const results = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => redeem(on(i), p, code)));
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) expect([loser.status, loser.body.error]).toEqual([400, 'invalid_grant']);
  });

  it.each([1, 2, 3])(`lets at most one of ${PARALLEL} refreshes of one token, spread over both, succeed (round %i)`, async () => {
    const issued = await tokens(b.url, p);
    const results = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => refresh(on(i), p, issued.refresh_token)));
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    for (const loser of results.filter((r) => r.status !== 200)) expect([loser.status, loser.body.error]).toEqual([400, 'invalid_grant']);
    // A retired token came back: the family is revoked on both instances (RFC 9700 §4.14.2).
    for (const winner of results.filter((r) => r.status === 200)) {
      expect((await introspect(a.url, p, winner.body.refresh_token)).body.active).toBe(false);
    }
  });

  it('continues on one instance a sign-in session started on the other', async () => {
    const browser = new BrowserSession(a.url);
    const url = authorizePath({
      response_type: 'code',
      client_id: p.client.clientId,
      redirect_uri: p.client.redirectUri,
      scope: 'profile',
      state: 'xyz',
      code_challenge: s256Challenge(VERIFIER),
      code_challenge_method: 'S256',
      prompt: 'consent',
    });
    // The sign-in page comes from A; the form is posted to B (its CSRF token and pending request too).
    const signInPage = await browser.get(url);
    expect(signInPage.text).toContain('name="password"');
    const onB = new BrowserSession(b.url);
    for (const [name, value] of browser.cookies) onB.cookies.set(name, value);
    const consentPage = await onB.post('/oauth/sign-in', { ...hiddenInputs(signInPage.text), email: p.user.email, password: p.user.password });
    expect(consentPage.status).toBe(200);
    expect(consentPage.text).toContain('name="decision"');
    // The signed-in session B set is read by A: the consent is decided there.
    const backOnA = new BrowserSession(a.url);
    for (const [name, value] of onB.cookies) backOnA.cookies.set(name, value);
    const decided = await backOnA.post('/oauth/consent', { ...hiddenInputs(consentPage.text), decision: 'approve' });
    expect(decided.status).toBe(303);
    const back = new URL(decided.location!);
    expect(back.searchParams.get('state')).toBe('xyz');
    // And B, given the same cookie, knows the user is signed in: no sign-in page, straight back with a code.
    onB.cookies.clear();
    for (const [name, value] of backOnA.cookies) onB.cookies.set(name, value);
    const again = await onB.get(url.replace('&prompt=consent', ''));
    expect(again.status).toBe(302);
    expect(new URL(again.location!).searchParams.get('code')).toMatch(/^sp_ac_/);
    expect((await redeem(a.url, p, back.searchParams.get('code')!)).status).toBe(200);
  });

  it('honours on one instance a revocation made on the other, within the token cache’s bound', async () => {
    const issued = await tokens(a.url, p);
    expect((await me(b.url, issued.access_token)).status).toBe(200);
    expect((await revoke(a.url, p, issued.refresh_token)).status).toBe(200);
    // B serves its cached grant until TOKEN_CACHE_TTL_MS has passed, then refuses. The bound itself is
    // checked on the app's Clock (test/public-api/token-cache.e2e-spec.ts); two processes cannot share
    // one, and a wall-clock deadline here would measure the machine's load as much as the cache.
    expect(await untilRefused(b.url, issued.access_token)).toBe(401);
    expect((await introspect(b.url, p, issued.access_token)).body).toEqual({ active: false });
  });

  it('honours Revoke access made on one instance on the other: the refresh token at once, the access token within the cache’s bound (README.md, Your account)', async () => {
    const browser = new BrowserSession(a.url);
    const issued = await tokens(a.url, p, browser);
    expect((await me(b.url, issued.access_token)).status).toBe(200);
    // The account page is opened on A and its form posted to B: one session, one CSRF token, any instance.
    const page = await signInAt(browser, '/account/apps', p.user);
    const onB = new BrowserSession(b.url);
    for (const [name, value] of browser.cookies) onB.cookies.set(name, value);
    const revoked = await onB.post('/account/apps/revoke', formInputs(page.text, '/account/apps/revoke'));
    expect(revoked.status).toBe(303);
    // On B, which revoked, at once; the refresh token is never cached, so on A at once too.
    expect((await me(b.url, issued.access_token)).status).toBe(401);
    expect((await refresh(a.url, p, issued.refresh_token)).body.error).toBe('invalid_grant');
    expect(await untilRefused(a.url, issued.access_token)).toBe(401);
    // And A, asked to authorize again, asks for consent again.
    const again = await browser.get(
      authorizePath({
        response_type: 'code',
        client_id: p.client.clientId,
        redirect_uri: p.client.redirectUri,
        scope: 'profile',
        code_challenge: s256Challenge(VERIFIER),
        code_challenge_method: 'S256',
      }),
    );
    expect(again.text).toContain('name="decision"');
  });

  it('serves one JWK Set from both instances: the signing keys were made once, for both', async () => {
    const [fromA, fromB] = await Promise.all([http(a.url, '/oauth/jwks'), http(b.url, '/oauth/jwks')]);
    expect(fromA.status).toBe(200);
    expect(fromA.body.keys.map((k: { alg: string }) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(fromB.body).toEqual(fromA.body);
  });

  it('shares the rate-limit counters: the two instances together allow the limit, not twice the limit', async () => {
    // Earlier calls of this suite may have spent some of the IP's budget: follow the counter from here.
    const answers: HttpResponse[] = [];
    for (let i = 0; i < 2 * ANONYMOUS_LIMIT; i++) answers.push(await http(on(i), '/api/public/v1/industries'));
    const allowed = answers.filter((r) => r.status === 200);
    expect(allowed.length).toBeGreaterThan(0);
    expect(allowed.length).toBeLessThanOrEqual(ANONYMOUS_LIMIT);
    // One counter: each answer, from either instance, has one request fewer left than the one before.
    const remaining = allowed.map((r) => Number(r.headers.get('ratelimit-remaining')));
    expect(remaining).toEqual(Array.from({ length: allowed.length }, (_, i) => allowed.length - 1 - i));
    for (const over of answers.slice(allowed.length)) {
      expect([over.status, over.body.error.code]).toEqual([429, 'RATE_LIMITED']);
      expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  });
});

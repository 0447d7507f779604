import * as oidc from 'openid-client';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { randomBytes } from 'node:crypto';
import { BrowserSession, runAuthorization } from '../helpers/oauth';
import { runCli, ServiceProcess, startService } from '../helpers/processes';
import { engine, freePort, isolatedStorage } from '../helpers/test-app';

/**
 * Key rotation as a relying party sees it (README.md, Commands; docs/integrate-with-oauth.md, OpenID Connect): two service processes on one PostgreSQL
 * schema, openid-client signing a user in through one of them, then `keys:rotate` by the CLI. Both
 * instances come to issue ID tokens under the new `kid` (within 10 s: test/oidc/signing-keys.e2e-spec.ts
 * checks that bound on the app's Clock), and the ID token issued before the rotation still verifies
 * against the JWK Set each instance serves.
 */
const shared = engine() === 'postgres' ? describe : describe.skip;
const REDIRECT = 'http://127.0.0.1:9/callback';

shared('signing-key rotation seen through openid-client, two instances on one PostgreSQL', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let env: Record<string, string>;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let user: { email: string; password: string };
  let client: { client_id: string; client_secret: string };

  beforeAll(async () => {
    storage = await isolatedStorage();
    env = {
      ...storage.env,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'one secret for every instance, 32+ characters long',
      KEY_ENCRYPTION_SECRET: 'one key encryption secret for every instance, 32+ characters',
      ID_TOKEN_TTL: '600',
    };
    [a, b] = await Promise.all([startService(env, await freePort()), startService(env, await freePort())]);
    const suffix = randomBytes(4).toString('hex');
    user = { email: `oidc-${suffix}@example.com`, password: `pw-${suffix}-correct horse battery` };
    const created = await runCli(['users:create', '--email', user.email, '--name', `Rotation ${suffix}`, '--password', user.password, '--json'], env);
    expect([created.status, created.stderr]).toEqual([0, '']);
    const registered = await runCli(
      ['clients:create', '--name', `Rotation ${suffix}`, '--redirect-uri', REDIRECT, '--scopes', 'openid profile email', '--id-token-alg', 'RS256', '--json'],
      env,
    );
    expect([registered.status, registered.stderr]).toEqual([0, '']);
    client = registered.json;
  }, 300_000);

  afterAll(async () => {
    for (const service of [a, b]) service?.child.kill('SIGTERM');
    expect(await a?.exited).toBe(0);
    expect(await b?.exited).toBe(0);
    await storage?.drop();
  });

  /** openid-client configured for one instance (each has its own PUBLIC_URL, so its own issuer). */
  async function configFor(service: ServiceProcess): Promise<oidc.Configuration> {
    const config = await oidc.discovery(new URL(service.url), client.client_id, { client_secret: client.client_secret }, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    // Every ID token the library accepts is verified against the instance's JWK Set, not only its claims.
    oidc.enableNonRepudiationChecks(config);
    return config;
  }

  it('has both instances sign ID tokens with the rotated key while the old ID token keeps verifying', async () => {
    const [configA, configB] = await Promise.all([configFor(a), configFor(b)]);

    // Sign in through instance a with openid-client: code flow with PKCE, state and nonce.
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(configA, {
      redirect_uri: REDIRECT,
      scope: 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
    });
    const callback = await runAuthorization(new BrowserSession(a.url), url.href, user);
    const signedIn = await oidc.authorizationCodeGrant(configA, callback, { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state, idTokenExpected: true });
    const oldIdToken = signedIn.id_token!;
    const oldKid = decodeProtectedHeader(oldIdToken).kid!;
    expect(decodeProtectedHeader(oldIdToken).alg).toBe('RS256');
    expect(signedIn.claims()).toMatchObject({ iss: a.url, aud: client.client_id, email: user.email, nonce });

    // Rotate with the CLI, as an operator does, while both instances run.
    const rotation = await runCli(['keys:rotate', '--json'], env);
    expect([rotation.status, rotation.stderr]).toEqual([0, '']);
    const newKid = (rotation.json.rotated as { alg: string; kid: string }[]).find((k) => k.alg === 'RS256')!.kid;
    expect(newKid).not.toBe(oldKid);

    // Each instance, through openid-client's refresh (a new ID token each time, its signature verified by
    // the library), comes to sign with the new key. That it does within 10 s is checked on the app's Clock
    // (test/oidc/signing-keys.e2e-spec.ts); two processes cannot share one, and a wall-clock deadline here
    // would measure the machine's load as much as the rotation. Each attempt discovers afresh:
    // openid-client keeps a JWK Set it fetched less than 60 s ago and refuses a kid it does not hold
    // (`no applicable keys found`), so a configuration that read the keys before the rotation would
    // refuse the new key's tokens until its cache is a minute old.
    let refreshToken = signedIn.refresh_token!;
    for (const service of [a, b]) {
      let kid: string | undefined;
      let idToken: string | undefined;
      while (kid !== newKid) {
        if (kid !== undefined) await new Promise((r) => setTimeout(r, 250));
        const refreshed = await oidc.refreshTokenGrant(await configFor(service), refreshToken);
        refreshToken = refreshed.refresh_token!;
        idToken = refreshed.id_token!;
        kid = decodeProtectedHeader(idToken).kid;
        expect(refreshed.claims()).toMatchObject({ iss: service.url, sub: signedIn.claims()!.sub, aud: client.client_id });
      }
      // The new ID token verifies against the other instance's keys too.
      const other = service === a ? b : a;
      await expect(jwtVerify(idToken!, createRemoteJWKSet(new URL('/oauth/jwks', other.url)), { issuer: service.url, audience: client.client_id })).resolves.toBeDefined();
    }

    // The ID token signed before the rotation still verifies against the JWK Set of either instance,
    // as discovered (jose's remote JWK Set, the one openid-client uses): the old key stays published.
    for (const config of [configA, configB]) {
      const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
      const { protectedHeader, payload } = await jwtVerify(oldIdToken, jwks, { issuer: a.url, audience: client.client_id, algorithms: ['RS256'] });
      expect(protectedHeader.kid).toBe(oldKid);
      expect(payload.nonce).toBe(nonce);
    }
    // And the server still takes it as an id_token_hint after the rotation (at its issuer, instance a).
    const logout = oidc.buildEndSessionUrl(configA, { id_token_hint: oldIdToken, post_logout_redirect_uri: REDIRECT });
    const res = await fetch(logout, { redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).toEqual([302, REDIRECT]);
  }, 300_000);
});

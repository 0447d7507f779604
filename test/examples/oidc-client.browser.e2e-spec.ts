import { hasChromium } from '../helpers/browser';
import { ExampleHarness } from '../helpers/example-programs';
import { freePort } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/**
 * The OpenID Connect example (examples/oidc-client.ts, openid-client v6) run the way its header says:
 * `npm run example:oidc -- --register` against a local service with its demo data. The program
 * registers itself with the CLI, discovers the provider, prints the authorization URL and waits on its
 * loopback redirect URI; Chromium plays the user: it opens the URL, signs in with the demo account and
 * allows access. The program then prints the ID token's claims (verified by the library), UserInfo, a
 * refresh with a new ID token and the logout URL, revokes, and exits 0.
 */
describeInBrowser('the example OpenID Connect relying party (openid-client)', () => {
  const harness = new ExampleHarness();

  beforeAll(() => harness.start(), 120_000);
  afterAll(() => harness.stop());

  it('signs the demo user in through the browser and prints the verified ID token claims', async () => {
    const { service } = harness;
    const callbackPort = await freePort();
    const run = await harness.run('example:oidc', callbackPort);
    const { authorizationUrl } = run;
    expect([authorizationUrl !== undefined, run.stdout, run.stderr]).toEqual([true, expect.any(String), expect.any(String)]);
    const url = new URL(authorizationUrl!);
    expect(url.origin).toBe(service.url);
    expect(url.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${callbackPort}/callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('openid profile email');
    expect(url.searchParams.get('nonce')).toEqual(expect.any(String));
    expect(run.stdout).toMatch(/Registered client sp_client_\S+ with redirect URI \S+ \(ID tokens RS256\)/);
    expect(run.stdout).toContain(`Discovered ${service.url} (keys at ${service.url}/oauth/jwks)`);

    // The user, in a browser.
    await harness.authorizeInBrowser(authorizationUrl!, 'Example OpenID Connect client', callbackPort);

    expect([await run.exited, run.stderr]).toEqual([0, '']);
    const { stdout } = run;
    const clientId = /Registered client (sp_client_\S+)/.exec(stdout)![1];
    const signedIn = /Signed in: ID token RS256, kid (\S+), verified by openid-client/.exec(stdout);
    expect(signedIn).not.toBeNull();
    // The kid the program printed is one of the keys the server publishes.
    const jwks = (await (await fetch(`${service.url}/oauth/jwks`)).json()) as { keys: { kid: string; alg: string }[] };
    expect(jwks.keys).toContainEqual(expect.objectContaining({ kid: signedIn![1], alg: 'RS256' }));
    expect(stdout).toContain(`  iss        ${service.url}\n`);
    const sub = /^ {2}sub {8}(\S+)$/m.exec(stdout)![1];
    expect(sub).toMatch(/^\d+$/);
    expect(stdout).toContain(`  aud        ${clientId}\n`);
    expect(stdout).toContain('  name       Demo Kullanıcı\n');
    expect(stdout).toContain('  email      demo@example.com (verified: ');
    expect(stdout).toMatch(/^ {2}auth_time {2}\d{4}-\d\d-\d\dT/m);
    expect(stdout).toContain(`UserInfo: Demo Kullanıcı <demo@example.com> (sub ${sub})`);
    expect(stdout).toContain(`Refreshed: a new ID token for sub ${sub}, same auth_time.`);
    const logout = new URL(/^ {2}(http:\/\/\S+\/oauth\/logout\?\S+)$/m.exec(stdout)![1]);
    expect(logout.origin).toBe(service.url);
    expect(logout.searchParams.get('post_logout_redirect_uri')).toBe(`http://127.0.0.1:${callbackPort}/callback`);
    expect(logout.searchParams.get('id_token_hint')).toEqual(expect.any(String));
    expect(stdout).toContain('Revoked the refresh token. Done.');
  }, 180_000);
});

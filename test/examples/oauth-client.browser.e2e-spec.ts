import { hasChromium } from '../helpers/browser';
import { ExampleHarness } from '../helpers/example-programs';
import { freePort } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/**
 * The example client (examples/oauth-client.ts) run the way its header says: `npm run example --
 * --register` against a local service with its demo data. The program registers itself with the CLI,
 * prints the authorization URL and waits on its loopback redirect URI; Chromium plays the user: it
 * opens the URL, signs in with the demo account and allows access. The program then prints the user
 * and a page of startups, refreshes, revokes, and exits 0.
 */
describeInBrowser('the example OAuth client program', () => {
  const harness = new ExampleHarness();

  beforeAll(() => harness.start(), 120_000);
  afterAll(() => harness.stop());

  it('authorizes through the browser, then prints the user and a page of startups', async () => {
    const { service } = harness;
    const callbackPort = await freePort();
    const run = await harness.run('example', callbackPort);
    const { authorizationUrl } = run;
    expect([authorizationUrl !== undefined, run.stdout, run.stderr]).toEqual([true, expect.any(String), expect.any(String)]);
    const url = new URL(authorizationUrl!);
    expect(url.origin).toBe(service.url);
    expect(url.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${callbackPort}/callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(run.stdout).toMatch(/Registered client sp_client_\S+ with redirect URI/);

    // The user, in a browser.
    await harness.authorizeInBrowser(authorizationUrl!, 'Example CLI client', callbackPort);

    expect([await run.exited, run.stderr]).toEqual([0, '']);
    const { stdout } = run;
    expect(stdout).toContain('Authorized: scope "profile read:startups"');
    expect(stdout).toContain('Signed in as Demo Kullanıcı <demo@example.com>');
    const page = /Startups 1–5 of (\d+):\n((?: {2}#\d+ {2}.+\n){5})/.exec(stdout);
    expect(page).not.toBeNull();
    expect(Number(page![1])).toBeGreaterThanOrEqual(5);
    expect(stdout).toContain('Refreshed the tokens; still signed in as demo@example.com.');
    expect(stdout).toContain('Revoked the refresh token');
  }, 180_000);
});

import { ChildProcess, spawn } from 'node:child_process';
import { Browser } from 'playwright-core';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { ROOT, ServiceProcess, startService } from '../helpers/processes';
import { freePort, isolatedStorage } from '../helpers/test-app';

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
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let service: ServiceProcess;
  let browser: Browser;
  let example: ChildProcess | undefined;

  beforeAll(async () => {
    storage = await isolatedStorage();
    [service, browser] = await Promise.all([startService({ ...storage.env, SEED_DEMO_DATA: 'true', LOG_LEVEL: 'warn' }, await freePort()), launchBrowser()]);
    for (let i = 0; i < 50 && !/Sign in as/.test(service.output()); i++) await new Promise((r) => setTimeout(r, 100));
  }, 120_000);

  afterAll(async () => {
    example?.kill('SIGKILL');
    await browser?.close();
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await storage?.drop();
  });

  it('signs the demo user in through the browser and prints the verified ID token claims', async () => {
    const demoPassword = /Sign in as\s+demo@example\.com\s+\/\s+(\S+)/.exec(service.output())![1];
    const callbackPort = await freePort();
    // The CLI the program calls to register itself works on the service's database (storage.env).
    const child = spawn('npm', ['run', '--silent', 'example:oidc', '--', '--register', '--base-url', service.url, '--port', String(callbackPort)], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', ...storage.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    example = child;
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    // The program prints the URL to open.
    let authorizationUrl: string | undefined;
    for (let i = 0; i < 600 && !authorizationUrl && child.exitCode === null; i++) {
      authorizationUrl = /^\s+(http:\/\/\S+\/oauth\/authorize\?\S+)$/m.exec(stdout)?.[1];
      if (!authorizationUrl) await new Promise((r) => setTimeout(r, 100));
    }
    expect([authorizationUrl !== undefined, stdout, stderr]).toEqual([true, expect.any(String), expect.any(String)]);
    const url = new URL(authorizationUrl!);
    expect(url.origin).toBe(service.url);
    expect(url.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${callbackPort}/callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('openid profile email');
    expect(url.searchParams.get('nonce')).toEqual(expect.any(String));
    expect(stdout).toMatch(/Registered client sp_client_\S+ with redirect URI \S+ \(ID tokens RS256\)/);
    expect(stdout).toContain(`Discovered ${service.url} (keys at ${service.url}/oauth/jwks)`);

    // The user, in a browser.
    const context = await browser.newContext({ locale: 'en-US' });
    try {
      const page = await context.newPage();
      await page.goto(authorizationUrl!);
      await page.getByLabel('Email address').fill('demo@example.com');
      await page.getByLabel('Password').fill(demoPassword);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Allow access' }).waitFor();
      expect(await page.textContent('main')).toContain('Example OpenID Connect client');
      await Promise.all([page.waitForURL(`http://127.0.0.1:${callbackPort}/callback?**`), page.getByRole('button', { name: 'Allow' }).click()]);
      expect(await page.textContent('h1')).toBe('Signed in');
    } finally {
      await context.close();
    }

    expect([await exited, stderr]).toEqual([0, '']);
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

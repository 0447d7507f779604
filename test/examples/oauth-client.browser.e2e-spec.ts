import { ChildProcess, spawn } from 'node:child_process';
import { Browser } from 'playwright-core';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { ROOT, ServiceProcess, startService } from '../helpers/processes';
import { freePort, isolatedStorage } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/**
 * The example client (examples/oauth-client.ts) run the way its header says: `npm run example --
 * --register` against a local service with its demo data. The program registers itself with the CLI,
 * prints the authorization URL and waits on its loopback redirect URI; Chromium plays the user: it
 * opens the URL, signs in with the demo account and allows access. The program then prints the user
 * and a page of startups, refreshes, revokes, and exits 0.
 */
describeInBrowser('the example OAuth client program', () => {
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

  it('authorizes through the browser, then prints the user and a page of startups', async () => {
    const demoPassword = /Sign in as\s+demo@example\.com\s+\/\s+(\S+)/.exec(service.output())![1];
    const callbackPort = await freePort();
    // The CLI the program calls to register itself works on the service's database (storage.env).
    const child = spawn('npm', ['run', '--silent', 'example', '--', '--register', '--base-url', service.url, '--port', String(callbackPort)], {
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
    expect(stdout).toMatch(/Registered client sp_client_\S+ with redirect URI/);

    // The user, in a browser.
    const context = await browser.newContext({ locale: 'en-US' });
    try {
      const page = await context.newPage();
      await page.goto(authorizationUrl!);
      await page.getByLabel('Email address').fill('demo@example.com');
      await page.getByLabel('Password').fill(demoPassword);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Allow access' }).waitFor();
      expect(await page.textContent('main')).toContain('Example CLI client');
      await Promise.all([page.waitForURL(`http://127.0.0.1:${callbackPort}/callback?**`), page.getByRole('button', { name: 'Allow' }).click()]);
      expect(await page.textContent('h1')).toBe('Signed in');
    } finally {
      await context.close();
    }

    expect([await exited, stderr]).toEqual([0, '']);
    expect(stdout).toContain('Authorized: scope "profile read:startups"');
    expect(stdout).toContain('Signed in as Demo Kullanıcı <demo@example.com>');
    const page = /Startups 1–5 of (\d+):\n((?: {2}#\d+ {2}.+\n){5})/.exec(stdout);
    expect(page).not.toBeNull();
    expect(Number(page![1])).toBeGreaterThanOrEqual(5);
    expect(stdout).toContain('Refreshed the tokens; still signed in as demo@example.com.');
    expect(stdout).toContain('Revoked the refresh token');
  }, 180_000);
});

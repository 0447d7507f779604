import { ChildProcess, spawn } from 'node:child_process';
import { Browser } from 'playwright-core';
import { launchBrowser } from './browser';
import { builtDist, ROOT, ServiceProcess, startService, waitForOutput } from './processes';
import { freePort, isolatedStorage } from './test-app';

/**
 * What the example programs' suites share: a service with its demo data on its own storage, Chromium
 * to play the user, and the program itself, run the way its header says (`npm run <script> --
 * --register`), which registers itself through the CLI on the service's database and waits on a
 * loopback redirect URI.
 */
export class ExampleHarness {
  storage!: Awaited<ReturnType<typeof isolatedStorage>>;
  service!: ServiceProcess;
  browser!: Browser;
  private program: ChildProcess | undefined;

  async start(): Promise<void> {
    this.storage = await isolatedStorage();
    [this.service, this.browser] = await Promise.all([
      startService({ ...this.storage.env, SEED_DEMO_DATA: 'true', LOG_LEVEL: 'warn' }, await freePort()),
      launchBrowser(),
    ]);
    await waitForOutput(this.service, /Sign in as\s+demo@example\.com\s+\/\s+\S+\n/);
  }

  async stop(): Promise<void> {
    this.program?.kill('SIGKILL');
    await this.browser?.close();
    if (this.service) {
      this.service.child.kill('SIGTERM');
      await this.service.exited;
    }
    await this.storage?.drop();
  }

  /**
   * The environment of an example program: the service's database, and this run's build for the
   * `npm run cli` it registers with (scripts/build-if-needed.js), never the checkout's dist/.
   */
  programEnv(): Record<string, string> {
    return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', SP_DIST_DIR: builtDist(), ...this.storage.env };
  }

  /** The demo user's password, which the service prints when it seeds its demo data. */
  demoPassword(): string {
    return /Sign in as\s+demo@example\.com\s+\/\s+(\S+)/.exec(this.service.output())![1];
  }

  /** Starts `npm run <script> -- --register …` and waits for the authorization URL it prints. */
  async run(script: string, callbackPort: number): Promise<ExampleRun> {
    const child = spawn('npm', ['run', '--silent', script, '--', '--register', '--base-url', this.service.url, '--port', String(callbackPort)], {
      cwd: ROOT,
      env: this.programEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.program = child;
    const run: ExampleRun = {
      stdout: '',
      stderr: '',
      exited: new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))),
      authorizationUrl: undefined,
    };
    child.stdout!.on('data', (chunk) => (run.stdout += chunk));
    child.stderr!.on('data', (chunk) => (run.stderr += chunk));
    for (let i = 0; i < 600 && !run.authorizationUrl && child.exitCode === null; i++) {
      run.authorizationUrl = /^\s+(http:\/\/\S+\/oauth\/authorize\?\S+)$/m.exec(run.stdout)?.[1];
      if (!run.authorizationUrl) await new Promise((r) => setTimeout(r, 100));
    }
    return run;
  }

  /**
   * The user, in Chromium: opens the URL, signs in as the demo user, checks that the consent page
   * names the client, allows, and lands on the program's callback page.
   */
  async authorizeInBrowser(authorizationUrl: string, clientName: string, callbackPort: number): Promise<void> {
    const context = await this.browser.newContext({ locale: 'en-US' });
    try {
      const page = await context.newPage();
      await page.goto(authorizationUrl);
      await page.getByLabel('Email address').fill('demo@example.com');
      await page.getByLabel('Password').fill(this.demoPassword());
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Allow access' }).waitFor();
      expect(await page.textContent('main')).toContain(clientName);
      await Promise.all([page.waitForURL(`http://127.0.0.1:${callbackPort}/callback?**`), page.getByRole('button', { name: 'Allow' }).click()]);
      expect(await page.textContent('h1')).toBe('Signed in');
    } finally {
      await context.close();
    }
  }
}

export interface ExampleRun {
  stdout: string;
  stderr: string;
  exited: Promise<number | null>;
  /** The authorization URL the program printed; undefined if it exited or printed none within 60 s. */
  authorizationUrl: string | undefined;
}

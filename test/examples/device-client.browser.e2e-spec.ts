import { spawn } from 'node:child_process';
import { hasChromium } from '../helpers/browser';
import { ExampleHarness } from '../helpers/example-programs';
import { ROOT } from '../helpers/processes';

const describeInBrowser = hasChromium ? describe : describe.skip;

/**
 * The device-flow example (examples/device-client.ts, openid-client v6) run the way its header says:
 * `npm run example:device -- --register` against a local service with its demo data. The program
 * prints the user code and the page to open, then polls; Chromium plays the user on another "device":
 * it opens the page, types the code in lower case, signs in with the demo account and allows. The
 * program then prints the signed-in user from `/api/public/v1/me` and exits 0.
 */
describeInBrowser('the example command-line tool (device flow, openid-client)', () => {
  const harness = new ExampleHarness();

  beforeAll(() => harness.start(), 120_000);
  afterAll(() => harness.stop());

  it('prints the code and the page, waits for the user to allow in a browser, then prints the user', async () => {
    const child = spawn('npm', ['run', '--silent', 'example:device', '--', '--register', '--base-url', harness.service.url], {
      cwd: ROOT,
      env: harness.programEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let userCode: string | undefined;
      for (let i = 0; i < 600 && !userCode && child.exitCode === null; i++) {
        userCode = /^ {2}([BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4})$/m.exec(stdout)?.[1];
        if (!userCode) await new Promise((r) => setTimeout(r, 100));
      }
      expect([userCode !== undefined, stdout, stderr]).toEqual([true, expect.any(String), expect.any(String)]);
      expect(stdout).toMatch(/Registered public client sp_client_\S+ for the device flow/);
      expect(stdout).toContain(`To sign in, open ${harness.service.url}/device on any device and enter the code:`);
      expect(stdout).toContain(`Or open ${harness.service.url}/device?user_code=${userCode}`);

      const context = await harness.browser.newContext({ locale: 'en-US' });
      try {
        const page = await context.newPage();
        await page.goto(`${harness.service.url}/device`);
        await page.getByLabel('Code').fill(userCode!.toLowerCase().replace('-', ''));
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByLabel('Email address').fill('demo@example.com');
        await page.getByLabel('Password').fill(harness.demoPassword());
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('heading', { name: 'Allow access' }).waitFor();
        expect(await page.textContent('main')).toContain('Example command-line tool');
        expect(await page.textContent('main')).toContain(userCode);
        await page.getByRole('button', { name: 'Allow' }).click();
        await page.getByRole('heading', { name: 'Go back to your device' }).waitFor();
      } finally {
        await context.close();
      }

      expect([await exited, stderr]).toEqual([0, '']);
      expect(stdout).toMatch(/Signed in as sub \d+; scope: email openid profile/);
      expect(stdout).toMatch(/GET \/api\/public\/v1\/me: .+ <demo@example\.com> \(id \d+\)/);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});

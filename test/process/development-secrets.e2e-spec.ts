import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { signInAt } from '../helpers/account';
import { authorizationCode, provision, redeem } from '../helpers/flows';
import { BrowserSession } from '../helpers/oauth';
import { builtDist, runCli, ServiceProcess, startService } from '../helpers/processes';
import { engine, freePort, isolatedStorage } from '../helpers/test-app';

const run = promisify(execFile);

/**
 * Outside production, SESSION_SECRET and KEY_ENCRYPTION_SECRET that are not set are made once and kept
 * in DEV_SECRETS_FILE, beside the SQLite file by default (docs/configuration-and-deployment.md,
 * Development secrets): a restarted development server keeps its signing keys and its sessions.
 */
describe('development secrets kept across starts of the built service', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let env: Record<string, string>;
  let file: string;
  let folder: string | undefined;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    storage = await isolatedStorage();
    env = { ...storage.env, LOG_LEVEL: 'warn', SEED_DEMO_DATA: 'false' };
    if (engine() === 'sqlite') {
      file = join(dirname(env.SQLITE_PATH), '.secrets.json');
    } else {
      folder = mkdtempSync(join(tmpdir(), 'sp-dev-secrets-'));
      file = join(folder, 'secrets.json');
      env.DEV_SECRETS_FILE = file;
    }
  });
  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await storage?.drop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  async function stop(s: ServiceProcess): Promise<void> {
    s.child.kill('SIGTERM');
    await s.exited;
  }

  it('has processes that make the file at once agree on one set of secrets, kept with mode 0600', async () => {
    const module = join(builtDist(), 'config', 'development-secrets.js');
    const program = `process.stdout.write(JSON.stringify(require(${JSON.stringify(module)}).keptSecrets(${JSON.stringify(file)})))`;
    const outputs = await Promise.all(Array.from({ length: 4 }, () => run(process.execPath, ['-e', program])));
    const secrets = outputs.map((output) => JSON.parse(output.stdout));
    for (const one of secrets) expect(one).toEqual(secrets[0]);
    expect(secrets[0]).toEqual({ SESSION_SECRET: expect.stringMatching(/^[\w-]{43}$/), KEY_ENCRYPTION_SECRET: expect.stringMatching(/^[\w-]{43}$/) });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(secrets[0]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // No candidate is left beside it.
    expect(readdirSync(dirname(file)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps the signing keys and the sign-in session across a restart, with no key-rotation warning', async () => {
    const provisioned = await provision(env);
    const withOpenId = await runCli(['clients:create', '--name', 'Restart check', '--redirect-uri', 'https://app.example/cb', '--scopes', 'openid profile', '--json'], env);
    expect(withOpenId.status).toBe(0);
    const client = { clientId: withOpenId.json.client_id, clientSecret: withOpenId.json.client_secret, redirectUri: 'https://app.example/cb' };

    service = await startService(env, await freePort());
    const first = service;
    const browser = new BrowserSession(first.url);
    expect((await signInAt(browser, '/account', provisioned.user)).status).toBe(200);
    const code = await authorizationCode(browser, { ...provisioned, client }, 'openid profile');
    const tokens = await redeem(first.url, { ...provisioned, client }, code);
    expect(tokens.status).toBe(200);
    const idToken: string = tokens.body.id_token;
    const firstKids = ((await (await fetch(`${first.url}/oauth/jwks`)).json()) as any).keys.map((key: { kid: string }) => key.kid).sort();
    await stop(first);

    service = await startService(env, await freePort());
    const second = service;
    // The ID token of the first start verifies against the keys the second start publishes, and these are the same keys.
    await expect(jwtVerify(idToken, createRemoteJWKSet(new URL('/oauth/jwks', second.url)), { audience: client.clientId })).resolves.toBeDefined();
    expect(((await (await fetch(`${second.url}/oauth/jwks`)).json()) as any).keys.map((key: { kid: string }) => key.kid).sort()).toEqual(firstKids);
    // The session cookie the first start set is still a signed-in session.
    const again = new BrowserSession(second.url);
    for (const [name, value] of browser.cookies) again.cookies.set(name, value);
    expect((await again.get('/account')).status).toBe(200);
    // The keys:rotate command works with the kept secret too: it reads the same file.
    expect((await runCli(['keys:list', '--json'], env)).status).toBe(0);
    await stop(second);
    expect(second.output()).not.toMatch(/KEY_ENCRYPTION_SECRET is not set|rotated/);
  });
});

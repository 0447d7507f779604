import { spawn } from 'node:child_process';
import { builtDist, ROOT, runCli, ServiceProcess, startService } from '../helpers/processes';
import { engine, freePort, isolatedStorage } from '../helpers/test-app';

interface ProgramRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Where the example programs find the service (examples/README.md): `--base-url`, else the service's
 * PUBLIC_URL, else http://localhost on its PORT; the address they tried when it cannot be reached; and
 * `--register` removing the client it made when a later step fails.
 */
const once = engine() === 'sqlite' ? describe : describe.skip;

once('the example programs follow the service\'s address', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let service: ServiceProcess;
  let port: number;
  let clientId: string;
  let callbackPort: number;

  beforeAll(async () => {
    storage = await isolatedStorage();
    port = await freePort();
    service = await startService({ ...storage.env, SEED_DEMO_DATA: 'false', LOG_LEVEL: 'warn', PUBLIC_URL: `http://localhost:${port}` }, port);
    callbackPort = await freePort();
    const created = await runCli(['clients:create', '--name', 'Address check', '--redirect-uri', `http://127.0.0.1:${callbackPort}/callback`, '--scopes', 'profile read:startups', '--json'], storage.env);
    clientId = created.json.client_id;
  }, 180_000);
  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
    await storage?.drop();
  });

  /** `npm run <script> -- …args` with the service's settings in `env`; stopped once `until` is seen on stdout. */
  function program(script: string, args: string[], env: Record<string, string>, until?: RegExp): Promise<ProgramRun> {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', SP_DIST_DIR: builtDist(), ...storage.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: npm, tsx and the program stop together.
      detached: true,
    });
    const run: ProgramRun = { status: null, stdout: '', stderr: '' };
    child.stdout!.on('data', (chunk) => {
      run.stdout += chunk;
      if (until?.test(run.stdout) && child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    });
    child.stderr!.on('data', (chunk) => (run.stderr += chunk));
    return new Promise((resolve) => child.on('close', (status) => resolve({ ...run, status })));
  }

  it.each([
    ['PORT', () => ({ PORT: String(port) })],
    ['PUBLIC_URL', () => ({ PUBLIC_URL: `http://localhost:${port}` })],
  ])('reaches the service at its %s without --base-url', async (_name, env) => {
    const run = await program('example', ['--client-id', clientId, '--client-secret', 'unused', '--port', String(callbackPort)], env(), /\/oauth\/authorize\?/);
    expect(run.stdout).toContain(`http://localhost:${port}/oauth/authorize?`);
  });

  it('names the address it tried when nothing answers there, and prefers --base-url', async () => {
    const closed = await freePort();
    const byPort = await program('example', ['--client-id', clientId, '--client-secret', 'unused'], { PORT: String(closed) });
    expect(byPort.status).toBe(1);
    expect(byPort.stderr).toContain(`Error: could not reach the service at http://localhost:${closed} (ECONNREFUSED). Start it with \`npm start\`, or say where it is: --base-url, PUBLIC_URL or PORT.`);
    const byFlag = await program('example:oidc', ['--client-id', clientId, '--client-secret', 'unused', '--base-url', `http://127.0.0.1:${closed}/`], { PUBLIC_URL: `http://localhost:${port}` });
    expect(byFlag.status).toBe(1);
    expect(byFlag.stderr).toContain(`could not reach the service at http://127.0.0.1:${closed} (ECONNREFUSED)`);
  });

  it('removes the client --register made when a later step fails', async () => {
    const closed = await freePort();
    const listed = async () => ((await runCli(['clients:list', '--json'], storage.env)).json.clients as Array<{ client_id: string; name: string }>).map((c) => c.name);
    const before = await listed();
    const run = await program('example:device', ['--register'], { PORT: String(closed) });
    expect(run.status).toBe(1);
    const registered = /Registered public client (sp_client_\S+)/.exec(run.stdout)?.[1];
    expect(registered).toBeDefined();
    expect(run.stderr).toContain(`could not reach the service at http://localhost:${closed}`);
    expect(run.stderr).toContain(`Removed the client ${registered} this run registered.`);
    expect(await listed()).toEqual(before);
  });
});

import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/**
 * The folder of this run's build of the service (`tsc -p tsconfig.build.json`), built on first use
 * and once per run: the Jest workers of one run share it through a lock file, and another run (a
 * second checkout, `npm test` twice) builds its own, so no run reads a build the other is rewriting.
 * It lies under the project, so that node finds node_modules from it. test/setup/build.js names the
 * run; test/setup/teardown.js removes the folder.
 */
export function builtDist(): string {
  // Without the global setup (a suite run some other way), a build per process.
  const runId = (process.env.TEST_RUN_ID ??= `${process.pid}-${randomBytes(4).toString('hex')}`);
  const dir = join(ROOT, '.test-build', runId);
  const dist = join(dir, 'dist');
  const lock = join(dir, 'building');
  const deadline = Date.now() + 600_000;
  for (;;) {
    // The build is renamed into place once complete: when the folder exists, it is whole.
    if (existsSync(dist)) return dist;
    mkdirSync(dir, { recursive: true });
    let fd: number | undefined;
    try {
      fd = openSync(lock, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (fd !== undefined) {
      const partial = join(dir, `dist-${process.pid}`);
      try {
        execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', partial], {
          cwd: ROOT,
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        renameSync(partial, dist);
        return dist;
      } finally {
        rmSync(partial, { recursive: true, force: true });
        closeSync(fd);
        // A failed build leaves no lock behind: the next suite that needs the service tries again.
        rmSync(lock, { force: true });
      }
    }
    if (Date.now() > deadline) throw new Error(`no build in ${dir} within 10 minutes (another worker holds ${lock})`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}

/** The services this suite started; whatever still runs when it ends is killed, so none outlives it. */
const started = new Set<ChildProcess>();

// A suite that imports this module runs the built service: it is built (or waited for) before the
// suite's own hooks, under a timeout of its own, rather than in whichever test first spawns it. Each
// of its programs is a node start-up, seconds on a loaded machine (two runs at once on two cores): its
// tests get 2 minutes rather than Jest's 30 s, and no wait inside has a deadline of its own.
if (typeof beforeAll === 'function') {
  jest.setTimeout(120_000);
  beforeAll(() => void builtDist(), 600_000);
  afterAll(() => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
}

/** A program of the built service: `cli` or `main`. */
export function builtEntry(name: 'cli' | 'main'): string {
  return join(builtDist(), `${name}.js`);
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

/**
 * Runs the built CLI (`node dist/cli.js …`, from this run's build) with the given environment. Not
 * spawnSync: the suite's own event loop keeps running meanwhile, so an app the suite started in this
 * process keeps answering, and its idle keep-alive connections close when they time out instead of all
 * at once after the CLI is done, under a request that picked one of them up.
 */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(process.execPath, [builtEntry('cli'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    // 'close': the process has exited and both pipes are read to their end.
    child.once('close', (status) => {
      started.delete(child);
      let json: any;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ status, stdout, stderr, json });
    });
  });
}

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts the built service (`node dist/main.js`, from this run's build) and resolves once it answers
 * /health: it waits for that, or for the process to exit, however long a loaded machine takes.
 */
export async function startService(env: Record<string, string>, port: number): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [builtEntry('main')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  started.add(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`service exited early with ${child.exitCode ?? child.signalCode}: ${output}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url, output: () => output, exited };
}

/**
 * Waits until the service has written `text` (a log line, the demo banner): an event, not a time. The
 * test's timeout ends a wait for a line that never comes.
 */
export async function waitForOutput(service: ServiceProcess, text: string | RegExp): Promise<void> {
  const seen = () => (typeof text === 'string' ? service.output().includes(text) : text.test(service.output()));
  while (!seen()) {
    if (service.child.exitCode !== null || service.child.signalCode !== null) throw new Error(`service exited with ${service.child.exitCode} before writing ${text}: ${service.output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

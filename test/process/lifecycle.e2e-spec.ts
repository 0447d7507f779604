import { connect, Socket } from 'node:net';
import { freePort, isolatedStorage } from '../helpers/test-app';
import { runCli, startService } from '../helpers/processes';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes';

function startMain(env: Record<string, string>) {
  return spawnSync(process.execPath, [join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('start-up configuration (CONTRACT §5)', () => {
  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number between 0 and 65535, got "eighty"'],
    [{ ACCESS_TOKEN_TTL: '5' }, 'ACCESS_TOKEN_TTL must be a whole number between 60 and 86400, got "5"'],
    [{ AUTH_CODE_TTL: '601' }, 'AUTH_CODE_TTL must be a whole number between 10 and 600, got "601"'],
    [{ DATABASE_URL: 'mysql://db/app' }, 'DATABASE_URL must use postgres: or postgresql:, got "mysql://db/app"'],
    [{ DATABASE_URL: 'postgres://u:hunter2@' }, 'DATABASE_URL must be an absolute URL'],
    [{ NODE_ENV: 'production' }, 'SESSION_SECRET is required when NODE_ENV=production'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
  ])('refuses to start with %j and says why in one line', (env, message) => {
    const result = startMain(env as Record<string, string>);
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(message);
    expect(result.stderr).not.toContain('hunter2');
    expect(result.stdout).toBe('');
  });
});

describe('graceful shutdown (CONTRACT §5)', () => {
  it('answers every request already accepted when SIGTERM arrives, then exits 0 and refuses new connections', async () => {
    const storage = await isolatedStorage();
    const port = await freePort();
    try {
      const service = await startService({ ...storage.env, LOG_LEVEL: 'info', SEED_DEMO_DATA: 'false' }, port);
      // 200 requests on 200 separate connections, all opened before the signal.
      const sockets = await Promise.all(
        Array.from({ length: 200 }, () => new Promise<Socket>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => resolve(socket));
          socket.on('error', reject);
        })),
      );
      const answers = sockets.map(
        (socket) =>
          new Promise<string>((resolve, reject) => {
            let data = '';
            socket.on('data', (chunk) => (data += chunk));
            socket.on('close', () => resolve(data));
            socket.on('error', reject);
          }),
      );
      service.child.kill('SIGTERM');
      // The requests arrive just after the signal, on connections the server had already accepted.
      await new Promise((r) => setTimeout(r, 20));
      for (const socket of sockets) socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
      const responses = await Promise.all(answers);
      expect(await service.exited).toBe(0);
      for (const response of responses) {
        expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
        expect(response).toMatch(/\r\nconnection: close\r\n/i);
      }
      await expect(fetch(`${service.url}/health`)).rejects.toThrow();
      expect(service.output()).toContain('"msg":"stopped"');
    } finally {
      await storage.drop();
    }
  });
});

describe('CLI basics (CONTRACT §6)', () => {
  it('creates a user, prints one JSON object, and refuses a duplicate without changing anything', async () => {
    const storage = await isolatedStorage();
    try {
      const created = runCli(['users:create', '--email', 'Ayse@Example.com', '--name', 'Ayşe', '--password', 'correct horse', '--json'], storage.env);
      expect(created.status).toBe(0);
      expect(created.json).toEqual({ id: expect.any(Number), email: 'ayse@example.com' });
      expect(created.stdout.trim().split('\n')).toHaveLength(1);

      const again = runCli(['users:create', '--email', 'ayse@example.com', '--name', 'X', '--password', 'another one', '--json'], storage.env);
      expect(again.status).toBe(1);
      expect(again.stdout).toBe('');
      expect(again.stderr.trim().split('\n')).toEqual(['A user with the email ayse@example.com already exists']);

      const short = runCli(['users:create', '--email', 'b@example.com', '--name', 'B', '--password', 'short', '--json'], storage.env);
      expect(short.status).toBe(1);
      expect(short.stderr.trim()).toBe('Invalid --password: at least 8 characters');
    } finally {
      await storage.drop();
    }
  });

  it('answers an unknown command with a non-zero exit', async () => {
    const storage = await isolatedStorage();
    try {
      const result = runCli(['nothing:here'], storage.env);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain("unknown command 'nothing:here'");
    } finally {
      await storage.drop();
    }
  });
});

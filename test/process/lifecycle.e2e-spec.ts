import { isolatedStorage } from '../helpers/test-app';
import { builtEntry, ROOT, runCli } from '../helpers/processes';
import { spawnSync } from 'node:child_process';

function startMain(env: Record<string, string>) {
  return spawnSync(process.execPath, [builtEntry('main')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('start-up configuration (docs/configuration-and-deployment.md)', () => {
  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number between 0 and 65535, got "eighty"'],
    [{ ACCESS_TOKEN_TTL: '5' }, 'ACCESS_TOKEN_TTL must be a whole number between 60 and 86400, got "5"'],
    [{ AUTH_CODE_TTL: '601' }, 'AUTH_CODE_TTL must be a whole number between 10 and 600, got "601"'],
    [{ DATABASE_URL: 'mysql://db/app' }, 'DATABASE_URL must use postgres: or postgresql:, got "mysql://db/app"'],
    [{ DATABASE_URL: 'postgres://u:hunter2@' }, 'DATABASE_URL must be an absolute URL'],
    [{ NODE_ENV: 'production' }, 'SESSION_SECRET is required when NODE_ENV=production'],
    [{ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40) }, 'KEY_ENCRYPTION_SECRET is required when NODE_ENV=production'],
    [{ KEY_ENCRYPTION_SECRET: 'too short' }, 'KEY_ENCRYPTION_SECRET must be at least 32 characters long'],
    [{ ID_TOKEN_TTL: '0' }, 'ID_TOKEN_TTL must be a whole number between 60 and 86400, got "0"'],
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

describe('CLI basics (README.md, Commands)', () => {
  it('creates a user, prints one JSON object, and refuses a duplicate without changing anything', async () => {
    const storage = await isolatedStorage();
    try {
      const created = await runCli(['users:create', '--email', 'Ayse@Example.com', '--name', 'Ayşe', '--password', 'correct horse', '--json'], storage.env);
      expect(created.status).toBe(0);
      expect(created.json).toEqual({ id: expect.any(Number), email: 'ayse@example.com' });
      expect(created.stdout.trim().split('\n')).toHaveLength(1);

      const again = await runCli(['users:create', '--email', 'ayse@example.com', '--name', 'X', '--password', 'another one', '--json'], storage.env);
      expect(again.status).toBe(1);
      expect(again.stdout).toBe('');
      expect(again.stderr.trim().split('\n')).toEqual(['A user with the email ayse@example.com already exists']);

      const short = await runCli(['users:create', '--email', 'b@example.com', '--name', 'B', '--password', 'short', '--json'], storage.env);
      expect(short.status).toBe(1);
      expect(short.stderr.trim()).toBe('Invalid --password: at least 8 characters');
    } finally {
      await storage.drop();
    }
  });

  it('holds a password set from the command line to the rules of every form, and a name to theirs, changing nothing when refused', async () => {
    const storage = await isolatedStorage();
    try {
      const refused: Array<[string[], string]> = [
        [['--email', 'cem@example.com', '--name', 'Cem', '--password', 'password'], 'Invalid --password: one of the most common passwords, easy to guess'],
        [['--email', 'cem@example.com', '--name', 'Cem', '--password', 'CEM@example.com'], 'Invalid --password: the same as the email address'],
        [['--email', 'cem@example.com', '--name', 'Cem Yılmaz', '--password', 'cem yılmaz'], 'Invalid --password: the same as the name'],
        [['--email', 'cem@example.com', '--name', 'Cem', '--password', '😀😀😀😀'], 'Invalid --password: at least 8 characters'],
        [['--email', 'cem@example.com', '--name', 'Cem', '--password', 'x'.repeat(129)], 'Invalid --password: at most 128 characters'],
        [['--email', 'cem@example.com', '--name', 'Cem\u001b[2J', '--password', 'correct horse'], 'Invalid --name: control characters are not allowed'],
      ];
      for (const [options, line] of refused) {
        const answer = await runCli(['users:create', ...options, '--json'], storage.env);
        expect([answer.status, answer.stdout, answer.stderr.trim()]).toEqual([1, '', line]);
      }
      // Nothing was created: the address is still free.
      const created = await runCli(['users:create', '--email', 'cem@example.com', '--name', 'Cem', '--password', 'correct horse', '--json'], storage.env);
      expect(created.status).toBe(0);

      const common = await runCli(['users:reset-password', '--email', 'cem@example.com', '--password', 'qwertyuiop', '--json'], storage.env);
      expect([common.status, common.stderr.trim()]).toEqual([1, 'Invalid --password: one of the most common passwords, easy to guess']);
      const named = await runCli(['users:reset-password', '--email', 'cem@example.com', '--password', 'Cem', '--json'], storage.env);
      expect([named.status, named.stderr.trim()]).toEqual([1, 'Invalid --password: at least 8 characters']);

      const key = await runCli(['api-keys:create', '--name', 'Ops\u001b]0;owned\u0007', '--json'], storage.env);
      expect([key.status, key.stderr.trim()]).toEqual([1, 'Invalid --name: control characters are not allowed']);
      expect((await runCli(['api-keys:list', '--json'], storage.env)).json).toEqual({ apiKeys: [] });
    } finally {
      await storage.drop();
    }
  });

  it('takes an address in its canonical form and refuses one that is not an address of one mailbox, with one line on stderr and nothing changed', async () => {
    const storage = await isolatedStorage();
    try {
      const created = await runCli(['users:create', '--email', 'Ali@ÖRNEK.com', '--name', 'Ali', '--password', 'correct horse', '--json'], storage.env);
      expect(created.json).toEqual({ id: expect.any(Number), email: 'ali@xn--rnek-4qa.com' });
      const same = await runCli(['users:create', '--email', 'ali@xn--RNEK-4qa.com', '--name', 'X', '--password', 'another one', '--json'], storage.env);
      expect([same.status, same.stderr.trim()]).toEqual([1, 'A user with the email ali@xn--rnek-4qa.com already exists']);
      const reset = await runCli(['users:reset-password', '--email', 'ALI@örnek.com', '--password', 'a new password', '--json'], storage.env);
      expect(reset.json).toEqual({ id: created.json.id, email: 'ali@xn--rnek-4qa.com' });

      const refusals: Array<[string, string]> = [
        ['"bob"@example.com', 'a quoted part before the @ ("…"@) is not accepted'],
        ['bob@exam\u00ADple.com', 'it contains an invisible or formatting character'],
        ['=?utf-8?q?bob?=@example.com', 'it is MIME-encoded'],
        ['bob@[192.0.2.1]', 'an IP address in place of a domain is not accepted'],
        ['böb@example.com', 'the part before the @ may only use ASCII letters'],
      ];
      // Each command starts a process of its own (seconds): every refusal on users:create, one on users:reset-password.
      const runs = [
        ...refusals.map(([typed, reason]) => ({ typed, reason, command: ['users:create', '--name', 'B', '--password', 'correct horse'] })),
        { typed: refusals[1][0], reason: refusals[1][1], command: ['users:reset-password'] },
      ];
      for (const { typed, reason, command } of runs) {
        const refused = await runCli([command[0], '--email', typed, ...command.slice(1)], storage.env);
        expect(refused.status).toBe(1);
        expect(refused.stdout).toBe('');
        const lines = refused.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(`Invalid --email: ${reason}`);
        expect(lines[0]).toContain('nothing changed');
      }
    } finally {
      await storage.drop();
    }
  });

  it('answers an unknown command with a non-zero exit', async () => {
    const storage = await isolatedStorage();
    try {
      const result = await runCli(['nothing:here'], storage.env);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain("unknown command 'nothing:here'");
    } finally {
      await storage.drop();
    }
  });
});

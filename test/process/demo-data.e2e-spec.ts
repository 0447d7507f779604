import { freePort, isolatedStorage } from '../helpers/test-app';
import { runCli, startService, waitForOutput } from '../helpers/processes';
import { signInAt } from '../helpers/account';
import { BrowserSession } from '../helpers/oauth';

describe('demo data on a new database (README.md, Commands)', () => {
  it('is created and its credentials printed once, after the server listens; a restart prints how to get a new password, which works, and keeps the data', async () => {
    const storage = await isolatedStorage();
    try {
      // The banner is written in one piece after the "listening" line, so that the start's log lines do
      // not scroll it away: waiting for its last line, not for a time, the output is complete.
      const env = { ...storage.env, SEED_DEMO_DATA: 'true', LOG_LEVEL: 'info' };
      const first = await startService(env, await freePort());
      await waitForOutput(first, /Lost password\?\s+npm run cli -- users:reset-password --email demo@example\.com\n─+\n/);
      const banner = first.output();
      expect(banner.indexOf('"msg":"listening"')).toBeGreaterThan(-1);
      expect(banner.indexOf('Demo data (shown once)')).toBeGreaterThan(banner.indexOf('"msg":"listening"'));
      const key = /API key\s+(sp_key_[A-Za-z0-9_-]{43})/.exec(banner)?.[1];
      const password = /Sign in as\s+demo@example\.com\s+\/\s+(\S+)/.exec(banner)?.[1];
      expect(key).toBeDefined();
      expect(password).toBeDefined();
      // Where the mails of sign-up and reset go, for someone trying them without SMTP_URL.
      expect(banner).toMatch(/Mail\s+printed on this console, links included \(set SMTP_URL to send it\)\n/);

      const industries = await fetch(`${first.url}/api/public/v1/industries`, { headers: { 'x-api-key': key! } });
      expect(industries.status).toBe(200);
      expect(industries.headers.get('ratelimit-limit')).toBe('600');

      const discovery = (await (await fetch(`${first.url}/.well-known/oauth-authorization-server`)).json()) as { issuer: string };
      expect(discovery.issuer).toBe(first.url);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      const second = await startService(env, await freePort());
      await waitForOutput(second, /Demo account\s+demo@example\.com\s+\(new password: npm run cli -- users:reset-password --email demo@example\.com\)\n/);
      expect(second.output()).not.toContain('Demo data');
      expect(second.output()).not.toContain(password!);
      const reset = await runCli(['users:reset-password', '--email', 'demo@example.com', '--json'], { ...env, LOG_LEVEL: 'silent' });
      expect(reset.status).toBe(0);
      expect(reset.json).toEqual({ id: expect.any(Number), email: 'demo@example.com', password: expect.stringMatching(/^[\w-]{12}$/) });
      expect((await signInAt(new BrowserSession(second.url), '/account', { email: 'demo@example.com', password: reset.json.password })).status).toBe(200);
      const unknown = await runCli(['users:reset-password', '--email', 'nobody@example.com'], { ...env, LOG_LEVEL: 'silent' });
      expect([unknown.status, unknown.stderr.trim()]).toEqual([1, 'No user with the email nobody@example.com; nothing changed']);
      const again = await fetch(`${second.url}/api/public/v1/industries`, { headers: { 'x-api-key': key! } });
      expect(again.status).toBe(200);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await storage.drop();
    }
  });
});

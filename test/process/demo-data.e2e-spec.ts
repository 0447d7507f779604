import { freePort, isolatedStorage } from '../helpers/test-app';
import { startService, waitForOutput } from '../helpers/processes';

describe('demo data on a new database (README.md, Commands)', () => {
  it('is created and its credentials printed once; a restart prints nothing and keeps the data', async () => {
    const storage = await isolatedStorage();
    try {
      // At info, the service logs "listening" after anything the start printed (the banner is printed
      // before the listener opens): waiting for that line, not for a time, the output is complete.
      const env = { ...storage.env, SEED_DEMO_DATA: 'true', LOG_LEVEL: 'info' };
      const first = await startService(env, await freePort());
      await waitForOutput(first, '"msg":"listening"');
      const banner = first.output();
      const key = /API key\s+(sp_key_[A-Za-z0-9_-]{43})/.exec(banner)?.[1];
      const password = /Sign in as\s+demo@example\.com\s+\/\s+(\S+)/.exec(banner)?.[1];
      expect(key).toBeDefined();
      expect(password).toBeDefined();

      const industries = await fetch(`${first.url}/api/public/v1/industries`, { headers: { 'x-api-key': key! } });
      expect(industries.status).toBe(200);
      expect(industries.headers.get('ratelimit-limit')).toBe('600');

      const discovery = (await (await fetch(`${first.url}/.well-known/oauth-authorization-server`)).json()) as { issuer: string };
      expect(discovery.issuer).toBe(first.url);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      const second = await startService(env, await freePort());
      await waitForOutput(second, '"msg":"listening"');
      expect(second.output()).not.toContain('Demo data');
      const again = await fetch(`${second.url}/api/public/v1/industries`, { headers: { 'x-api-key': key! } });
      expect(again.status).toBe(200);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await storage.drop();
    }
  });
});

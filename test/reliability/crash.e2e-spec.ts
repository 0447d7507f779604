import { sha256Hex } from '../../src/common/crypto/secrets';
import { BrowserSession } from '../helpers/oauth';
import { authorizationCode, me, provision, Provisioned, redeem, refresh } from '../helpers/flows';
import { ServiceProcess, startService } from '../helpers/processes';
import { queryStorage } from '../helpers/storage-query';
import { freePort, isolatedStorage } from '../helpers/test-app';

/**
 * `kill -9` in the middle of a burst of token issuance (codes redeemed, refresh tokens rotated): after
 * a restart on the same database every token a client received works, and the tables hold no
 * half-written grant. A grant's writes (code consumed or refresh token retired, new refresh token, new
 * access token) share one transaction, so a crash keeps all of them or none.
 */
const CODES = 60;
const CHAINS = 30;

interface Pair {
  access_token: string;
  refresh_token: string;
}

/** Half-written grants, by the rule each would break; every list must be empty. */
const INVARIANTS: Record<string, string> = {
  'a consumed code without the refresh token it granted': `
    SELECT c.id FROM oauth_authorization_codes c
    WHERE c.consumed_at IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM oauth_refresh_tokens r WHERE r.authorization_code_id = c.id AND r.created_at = c.consumed_at)`,
  'a refresh token without exactly one access token': `
    SELECT r.id FROM oauth_refresh_tokens r
    WHERE (SELECT COUNT(*) FROM oauth_access_tokens a WHERE a.refresh_token_id = r.id) <> 1`,
  'an access token without its refresh token': `
    SELECT a.id FROM oauth_access_tokens a
    WHERE a.refresh_token_id IS NULL OR NOT EXISTS (SELECT 1 FROM oauth_refresh_tokens r WHERE r.id = a.refresh_token_id)`,
  'a retired refresh token without its successor': `
    SELECT r.id FROM oauth_refresh_tokens r
    WHERE r.rotated_at IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM oauth_refresh_tokens s WHERE s.family_id = r.family_id AND s.id <> r.id AND s.created_at = r.rotated_at)`,
  'a refresh token retired twice (two successors)': `
    SELECT r.id FROM oauth_refresh_tokens r
    WHERE (SELECT COUNT(*) FROM oauth_refresh_tokens s WHERE s.family_id = r.family_id AND s.id <> r.id AND s.created_at = r.rotated_at) > 1`,
  // Nothing in the burst replays a code or a token: a revocation would mean a lost write was retried.
  'a revoked token': `SELECT id FROM oauth_refresh_tokens WHERE revoked_at IS NOT NULL UNION ALL SELECT id FROM oauth_access_tokens WHERE revoked_at IS NOT NULL`,
};

describe('kill -9 during a burst of token issuance', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let service: ServiceProcess | undefined;
  let env: Record<string, string>;
  let port: number;

  beforeAll(async () => {
    storage = await isolatedStorage();
    port = await freePort();
    env = { ...storage.env, SEED_DEMO_DATA: 'false', LOG_LEVEL: 'warn', SESSION_SECRET: 's'.repeat(40), AUTH_CODE_TTL: '600', RATE_LIMIT_CLIENT: '1000000', PURGE_INTERVAL: '0' };
  });
  afterAll(async () => {
    if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
    await storage?.drop();
  });

  it('keeps every token a client received working and leaves no half-written grant', async () => {
    const p: Provisioned = await provision(storage.env);
    service = await startService(env, port);
    const base = service.url;
    const browser = new BrowserSession(base);
    const codes: string[] = [];
    for (let i = 0; i < CODES + CHAINS; i++) codes.push(await authorizationCode(browser, p));
    const chains: Pair[][] = [];
    for (const code of codes.splice(CODES)) chains.push([(await redeem(base, p, code)).body]);

    // The burst: every code redeemed once, every chain refreshed again and again, all at the same time.
    const received = new Map<string, Pair>();
    let successes = 0;
    let interrupted = 0;
    let stop = false;
    const cutOff = () => {
      interrupted++;
      return undefined;
    };
    const redemptions = codes.map(async (code) => {
      const res = await redeem(base, p, code).catch(cutOff);
      if (res?.status === 200) {
        received.set(code, res.body);
        successes++;
      }
    });
    const rotations = chains.map(async (chain) => {
      while (!stop) {
        const res = await refresh(base, p, chain[chain.length - 1].refresh_token).catch(cutOff);
        if (res?.status !== 200) break;
        chain.push(res.body);
        successes++;
      }
    });
    // The kill lands once 60 grants were answered, however long a loaded machine takes to answer them.
    while (successes < 60) await new Promise((r) => setImmediate(r));
    service.child.kill('SIGKILL');
    expect(await service.exited).toBeNull();
    stop = true;
    await Promise.all([...redemptions, ...rotations]);
    expect(successes).toBeGreaterThanOrEqual(60);
    // The kill did land mid-burst: requests were cut off without an answer.
    expect(interrupted).toBeGreaterThan(0);

    // The crash left no half-written grant.
    for (const [rule, sql] of Object.entries(INVARIANTS)) {
      expect([rule, await queryStorage(storage.env, sql)]).toEqual([rule, []]);
    }

    service = await startService(env, port);
    // Every access token the client ever received works.
    const accessTokens = [...received.values(), ...chains.flat()].map((pair) => pair.access_token);
    for (const token of accessTokens) expect([token.slice(0, 12), (await me(service.url, token)).status]).toEqual([token.slice(0, 12), 200]);

    // Each chain's last refresh token works — unless its rotation committed while the answer was lost
    // in the crash, which the tables show as a complete successor (checked above).
    for (const chain of chains) {
      const last = chain[chain.length - 1].refresh_token;
      const [row] = await queryStorage<{ rotated_at: unknown }>(storage.env, `SELECT rotated_at FROM oauth_refresh_tokens WHERE token_hash = '${sha256Hex(last)}'`);
      if (row.rotated_at !== null) continue;
      const res = await refresh(service.url, p, last);
      expect([res.status, res.body.token_type]).toEqual([200, 'Bearer']);
    }

    // A code whose answer was lost is either consumed with its whole grant (above) or still unused.
    for (const code of codes.filter((c) => !received.has(c))) {
      const [row] = await queryStorage<{ consumed_at: unknown }>(storage.env, `SELECT consumed_at FROM oauth_authorization_codes WHERE code_hash = '${sha256Hex(code)}'`);
      if (row.consumed_at === null) expect((await redeem(service.url, p, code)).status).toBe(200);
    }
    for (const [rule, sql] of Object.entries(INVARIANTS)) {
      expect([rule, await queryStorage(storage.env, sql)]).toEqual([rule, []]);
    }
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 180_000);
});

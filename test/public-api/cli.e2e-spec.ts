import { http } from '../helpers/http';
import { CliResult, runCli } from '../helpers/processes';
import { queryStorage } from '../helpers/storage-query';
import { isolatedStorage, startTestApp } from '../helpers/test-app';

/**
 * The api-keys and seed commands of the built CLI (`node dist/cli.js`, built once per test run), run
 * as an operator would, against the database of this jest project (SQLite file or PostgreSQL schema).
 */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expectCliError(result: CliResult, message: RegExp): void {
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(message);
}

describe('cli api-keys:*', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  const cli = (...args: string[]) => runCli(args, storage.env);

  beforeAll(async () => {
    storage = await isolatedStorage();
  });
  afterAll(() => storage.drop());

  it('creates keys, shown once, standard by default', async () => {
    const standard = await cli('api-keys:create', '--name', 'Mobil uygulama', '--json');
    expect(standard.status).toBe(0);
    expect(standard.json).toEqual({ id: expect.any(Number), key: expect.stringMatching(/^sp_key_[A-Za-z0-9_-]{43}$/) });
    expect(standard.stdout.trim().split('\n')).toHaveLength(1);

    const partner = await cli('api-keys:create', '--name', 'Partner', '--tier', 'partner', '--json');
    expect(partner.status).toBe(0);
    expect(partner.json.key).not.toBe(standard.json.key);

    const human = await cli('api-keys:create', '--name', 'Human output');
    expect(human.status).toBe(0);
    expect(human.stdout).toMatch(/sp_key_[A-Za-z0-9_-]{43}/);
  });

  it('lists keys with ISO times and a visible prefix, never the key or its hash', async () => {
    const res = await cli('api-keys:list', '--json');
    expect(res.status).toBe(0);
    expect(Object.keys(res.json)).toEqual(['apiKeys']);
    expect(res.json.apiKeys).toHaveLength(3);
    const [first, second] = res.json.apiKeys;
    expect(first).toEqual({
      id: expect.any(Number),
      name: 'Mobil uygulama',
      tier: 'standard',
      prefix: expect.stringMatching(/^sp_key_.{5}$/),
      createdAt: expect.stringMatching(ISO),
      lastUsedAt: null,
      revokedAt: null,
      // An operator's key: no owner, on no one's developer portal.
      ownerId: null,
    });
    expect(second).toMatchObject({ name: 'Partner', tier: 'partner' });
    const [{ key_hash }] = await queryStorage<{ key_hash: string }>(storage.env, `SELECT key_hash FROM api_keys WHERE id = ${first.id}`);
    expect(key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(res.stdout).not.toContain(key_hash);
  });

  it('revokes a key', async () => {
    const { id } = (await cli('api-keys:create', '--name', 'To revoke', '--json')).json;
    const res = await cli('api-keys:revoke', String(id), '--json');
    expect(res.status).toBe(0);
    expect(res.json).toEqual({ id, revoked: true });
    const listed = (await cli('api-keys:list', '--json')).json.apiKeys.find((k: { id: number }) => k.id === id);
    expect(listed.revokedAt).toMatch(ISO);
    // Again: still revoked, same time.
    expect((await cli('api-keys:revoke', String(id), '--json')).json).toEqual({ id, revoked: true });
    expect((await cli('api-keys:list', '--json')).json.apiKeys.find((k: { id: number }) => k.id === id).revokedAt).toBe(listed.revokedAt);
  });

  it.each([
    [['api-keys:create', '--name', 'Gold', '--tier', 'gold', '--json'], /^Invalid --tier: "gold"/],
    [['api-keys:create', '--json'], /^Missing required option --name$/],
    [['api-keys:create', '--name', ' ', '--json'], /^Missing required option --name$/],
    [['api-keys:revoke', '999999', '--json'], /^No API key with id 999999$/],
    [['api-keys:revoke', '99999999999', '--json'], /^No API key with id 99999999999$/],
    [['api-keys:revoke', 'abc', '--json'], /^Invalid API key id: "abc"$/],
  ])('refuses %j with one line on stderr and changes nothing', async (args, message) => {
    const before = await queryStorage(storage.env, 'SELECT * FROM api_keys ORDER BY id');
    expectCliError(await cli(...args), message);
    expect(await queryStorage(storage.env, 'SELECT * FROM api_keys ORDER BY id')).toEqual(before);
  });
});

describe('cli api-keys against a running service', () => {
  it('serves a created key on its tier, and refuses it once revoked', async () => {
    const t = await startTestApp({ RATE_LIMIT_PARTNER: '777' });
    try {
      const { id, key } = (await runCli(['api-keys:create', '--name', 'Live', '--tier', 'partner', '--json'], t.env)).json;
      const ok = await http(t.url, '/api/public/v1/industries', { headers: { 'x-api-key': key } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit-limit')).toBe('777');
      expect((await runCli(['api-keys:list', '--json'], t.env)).json.apiKeys[0].lastUsedAt).toMatch(ISO);

      expect((await runCli(['api-keys:revoke', String(id), '--json'], t.env)).json).toEqual({ id, revoked: true });
      const refused = await http(t.url, '/api/public/v1/industries', { headers: { 'x-api-key': key } });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('INVALID_API_KEY');
    } finally {
      await t.close();
    }
  });
});

describe('cli seed', () => {
  const STARTUP_COLUMNS = 'id, name, sort_name, slug, description, website, founded_year, city, industry_id';
  const dump = (env: Record<string, string>) => queryStorage(env, `SELECT ${STARTUP_COLUMNS} FROM startups ORDER BY id`);
  const storages: Array<Awaited<ReturnType<typeof isolatedStorage>>> = [];
  const fresh = async () => {
    const storage = await isolatedStorage();
    storages.push(storage);
    return storage.env;
  };
  afterAll(async () => {
    for (const storage of storages) await storage.drop();
  });

  it('adds 200 startups by default and reports what it did', async () => {
    const env = await fresh();
    const res = await runCli(['seed', '--json'], env);
    expect(res.status).toBe(0);
    expect(res.json).toEqual({ industriesAdded: 0, startupsAdded: 200, startupsTotal: 200, startupsRequested: 200 });
    const rows = await dump(env);
    expect(rows).toHaveLength(200);
    expect(new Set(rows.map((r) => r.slug)).size).toBe(200);
    for (const row of rows) {
      expect(Number(row.founded_year)).toBeGreaterThanOrEqual(2005);
      expect(Number(row.founded_year)).toBeLessThanOrEqual(2025);
      expect(row.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    expect(new Set(rows.map((r) => r.city))).toContain('İstanbul');
  });

  it('writes the same data for the same N, and tops up to N rather than duplicating', async () => {
    const once = await fresh();
    expect((await runCli(['seed', '--startups', '120', '--json'], once)).json.startupsAdded).toBe(120);

    const inSteps = await fresh();
    expect((await runCli(['seed', '--startups', '50', '--json'], inSteps)).json).toMatchObject({ startupsAdded: 50, startupsTotal: 50 });
    expect((await runCli(['seed', '--startups', '120', '--json'], inSteps)).json).toMatchObject({ startupsAdded: 70, startupsTotal: 120 });
    expect((await runCli(['seed', '--startups', '80', '--json'], inSteps)).json).toMatchObject({ startupsAdded: 0, startupsTotal: 120 });
    const again = await runCli(['seed', '--startups', '120'], inSteps);
    expect(again.stdout).toMatch(/already holds 120 startups/);

    expect(await dump(inSteps)).toEqual(await dump(once));
  });

  it('puts back demo industries that are missing', async () => {
    const env = await fresh();
    expect((await runCli(['seed', '--startups', '0', '--json'], env)).json).toEqual({ industriesAdded: 0, startupsAdded: 0, startupsTotal: 0, startupsRequested: 0 });
    await queryStorage(env, "DELETE FROM industries WHERE name IN ('Gaming', 'IoT')");
    expect((await runCli(['seed', '--startups', '30', '--json'], env)).json).toEqual({ industriesAdded: 2, startupsAdded: 30, startupsTotal: 30, startupsRequested: 30 });
    const names = (await queryStorage<{ name: string }>(env, 'SELECT name FROM industries')).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['Gaming', 'IoT']));
    expect(names).toHaveLength(26);
  });

  it.each([['abc'], ['-5'], ['1.5'], ['1000001']])('refuses --startups %s and changes nothing', async (n) => {
    const env = await fresh();
    expectCliError(await runCli(['seed', '--startups', n, '--json'], env), /^Invalid --startups: /);
    expect(await dump(env)).toEqual([]);
  });
});

import { http } from '../helpers/http';
import { runCli } from '../helpers/processes';
import { queryStorage } from '../helpers/storage-query';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * `seed --users N [--tokens-for CLIENT_ID]`: seed users, and a working grant for each of them, for load
 * and integration tests (the benchmark seeds its 1,000 users this way).
 */
describe('cli seed --users', () => {
  let t: TestApp;
  let client: { client_id: string; client_secret: string };
  const cli = (...args: string[]) => runCli([...args, '--json'], t.env);
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(fields).toString(),
  });

  beforeAll(async () => {
    t = await startTestApp();
    client = (await cli('clients:create', '--name', 'Load test', '--redirect-uri', 'http://127.0.0.1:8080/cb', '--scopes', 'profile read:startups')).json;
  });
  afterAll(() => t.close());

  it('creates the seed users, and issues each a grant that works on /me, /oauth/token and /oauth/introspect', async () => {
    const res = await cli('seed', '--startups', '0', '--users', '3', '--tokens-for', client.client_id);
    expect(res.status).toBe(0);
    expect(res.json).toMatchObject({ usersAdded: 3, usersSeeded: 3 });
    expect(res.json.grants).toHaveLength(3);

    const users = await queryStorage<{ id: number | string; email: string }>(t.env, "SELECT id, email FROM users WHERE email LIKE 'seed-user-%' ORDER BY id");
    expect(users.map((u) => u.email)).toEqual(['seed-user-000001@example.invalid', 'seed-user-000002@example.invalid', 'seed-user-000003@example.invalid']);

    for (const [i, grant] of (res.json.grants as Array<{ user_id: number; access_token: string; refresh_token: string }>).entries()) {
      expect(grant.user_id).toBe(Number(users[i].id));
      const me = await http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${grant.access_token}` } });
      expect(me.status).toBe(200);
      expect(me.body.data).toEqual({ id: grant.user_id, name: `Seed User ${i + 1}`, email: users[i].email });
    }

    const [first] = res.json.grants;
    const introspected = await http(t.url, '/oauth/introspect', form({ token: first.access_token }));
    expect(introspected.body).toMatchObject({ active: true, scope: 'profile read:startups', client_id: client.client_id, sub: String(first.user_id) });
    const refreshed = await http(t.url, '/oauth/token', form({ grant_type: 'refresh_token', refresh_token: first.refresh_token }));
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.scope).toBe('profile read:startups');
  });

  it('stores the tokens only as hashes', async () => {
    const { grants } = (await cli('seed', '--startups', '0', '--users', '1', '--tokens-for', client.client_id)).json;
    const rows = await queryStorage<{ token_hash: string }>(t.env, 'SELECT token_hash FROM oauth_access_tokens');
    expect(rows.map((r) => r.token_hash)).not.toContain(grants[0].access_token);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  it('tops the users up to N, and issues new grants to all of them', async () => {
    const res = await cli('seed', '--startups', '0', '--users', '5', '--tokens-for', client.client_id);
    expect(res.json).toMatchObject({ usersAdded: 2, usersSeeded: 5 });
    expect(new Set(res.json.grants.map((g: { user_id: number }) => g.user_id)).size).toBe(5);
    expect((await cli('seed', '--startups', '0', '--users', '5')).json).toEqual({
      industriesAdded: 0,
      startupsAdded: 0,
      startupsTotal: 0,
      startupsRequested: 0,
      usersAdded: 0,
      usersSeeded: 5,
    });
  });

  it('gives seed users a slow-hashed password, not an empty or known one', async () => {
    const [user] = await queryStorage<{ password_hash: string }>(t.env, "SELECT password_hash FROM users WHERE email = 'seed-user-000001@example.invalid'");
    expect(user.password_hash).toMatch(/^scrypt\$/);
  });

  it.each([
    [['--users', '2', '--tokens-for', 'sp_client_unknown'], /^Unknown client: sp_client_unknown$/],
    [['--tokens-for', 'x'], /^--tokens-for needs --users$/],
    [['--users', 'many'], /^Invalid --users: /],
  ])('refuses %j with one line and changes nothing', async (args, message) => {
    const before = await queryStorage(t.env, 'SELECT COUNT(*) AS n FROM users');
    const res = await cli('seed', '--startups', '7', ...args);
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim()).toMatch(message);
    expect(await queryStorage(t.env, 'SELECT COUNT(*) AS n FROM users')).toEqual(before);
    expect(Number((await queryStorage<{ n: number }>(t.env, 'SELECT COUNT(*) AS n FROM startups'))[0].n)).toBe(0);
  });
});

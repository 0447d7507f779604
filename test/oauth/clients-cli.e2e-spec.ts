import { runCli } from '../helpers/processes';
import { isolatedStorage } from '../helpers/test-app';

/** `cli clients:*` and `cli tokens:purge` (README.md, Commands): one JSON object on stdout, or one line on stderr and no change. */
describe('client and token commands', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    storage = await isolatedStorage();
    env = { ...storage.env, PUBLIC_URL: 'https://auth.example' };
  });
  afterAll(() => storage.drop());

  const cli = (...args: string[]) => runCli([...args, '--json'], env);
  const list = async () => (await cli('clients:list')).json.clients as Array<Record<string, unknown>>;

  it('creates a confidential client and shows its secret once', async () => {
    const created = await cli('clients:create', '--name', 'Partner Portal', '--redirect-uri', 'https://portal.example/cb', '--redirect-uri', 'http://localhost:8080/cb', '--scopes', 'read:startups profile');
    expect(created.status).toBe(0);
    expect(created.stdout.trim().split('\n')).toHaveLength(1);
    expect(created.json).toEqual({ client_id: expect.stringMatching(/^sp_client_[A-Za-z0-9_-]{22}$/), client_secret: expect.stringMatching(/^sp_cs_[A-Za-z0-9_-]{43}$/) });

    const listed = await list();
    expect(listed).toEqual([
      {
        client_id: created.json.client_id,
        name: 'Partner Portal',
        type: 'confidential',
        redirect_uris: ['https://portal.example/cb', 'http://localhost:8080/cb'],
        scopes: ['profile', 'read:startups'],
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        id_token_signed_response_alg: 'RS256',
        // An operator's client: no owner, on no one's developer portal.
        owner_id: null,
        // The operator made it, so the operator vouches for it from the start.
        verified: true,
        // Plain authorization requests are allowed unless registered with --require-par.
        require_par: false,
        // The device grant is allowed only when registered with --device-flow.
        device_flow: false,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.json.client_secret);
  });

  it('creates a public client without a secret', async () => {
    const created = await cli('clients:create', '--name', 'Mobile', '--redirect-uri', 'http://127.0.0.1:7777/cb', '--scopes', 'profile', '--public');
    expect(created.status).toBe(0);
    expect(created.json).toEqual({ client_id: expect.stringMatching(/^sp_client_/) });
  });

  it('creates a client that must push its authorization requests (--require-par), shown by clients:list', async () => {
    const created = await cli('clients:create', '--name', 'Pushed Only', '--redirect-uri', 'https://pushed.example/cb', '--scopes', 'profile', '--require-par');
    expect(created.status).toBe(0);
    expect((await list()).find((c) => c.client_id === created.json.client_id)).toMatchObject({ name: 'Pushed Only', require_par: true });
    const human = (await runCli(['clients:list'], env)).stdout.split('\n').find((line) => line.startsWith(created.json.client_id));
    expect(human).toContain('requires PAR');
  });

  it.each([
    [['--redirect-uri', 'http://portal.example/cb', '--scopes', 'profile'], 'Invalid redirect URI "http://portal.example/cb": http is allowed only for localhost, 127.0.0.1 and [::1]; use https'],
    [['--redirect-uri', 'https://portal.example/cb#top', '--scopes', 'profile'], 'Invalid redirect URI "https://portal.example/cb#top": must not contain a fragment'],
    [['--redirect-uri', '/relative/cb', '--scopes', 'profile'], 'Invalid redirect URI "/relative/cb": not an absolute URL'],
    [['--redirect-uri', 'https://portal.example;script-src/cb', '--scopes', 'profile'], 'Invalid redirect URI "https://portal.example;script-src/cb": must not contain ";" (none of * ; , \\)'],
    [['--redirect-uri', 'https://Portal.example', '--scopes', 'profile'], 'Invalid redirect URI "https://Portal.example": write it as https://portal.example/ (it is compared exactly, in the form a URL parser gives it)'],
    [['--redirect-uri', 'https:portal.example/cb', '--scopes', 'profile'], 'Invalid redirect URI "https:portal.example/cb": write // after the scheme (https://host/path)'],
    [['--redirect-uri', 'https://portal.example/cb', '--scopes', 'profile admin'], 'Invalid scopes: unknown scope "admin" (known: openid, profile, email, read:startups)'],
    [['--redirect-uri', 'https://portal.example/cb', '--scopes', ','], 'Invalid scopes: give at least one of openid, profile, email, read:startups'],
    [['--scopes', 'profile'], 'Missing required option --redirect-uri'],
    [['--redirect-uri', 'https://portal.example/cb'], 'Missing required option --scopes'],
  ])('refuses %j with one line on stderr and changes nothing', async (args, message) => {
    const before = (await list()).length;
    const result = await cli('clients:create', '--name', 'Bad', ...args);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([message]);
    expect(await list()).toHaveLength(before);
  });

  it.each([
    ['a right-to-left override', 'Portal \u202elatroP', 'U+202E'],
    ['a zero-width space', 'Por\u200btal', 'U+200B'],
    ['an escape character', 'Portal\u001b[2J', 'U+001B'],
  ])('refuses a name with %s, naming the character, and changes nothing', async (_case, name, codePoint) => {
    const before = (await list()).length;
    const result = await cli('clients:create', '--name', name, '--redirect-uri', 'https://portal.example/cb', '--scopes', 'profile');
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(`Invalid name: ${codePoint} is a control or invisible formatting character (no control characters, direction overrides or isolates, zero-width characters)`);
    expect(await list()).toHaveLength(before);
  });

  it.each([
    ['the platform\'s own name', 'startup platform', 'Invalid name: "startup platform" looks like the platform\'s own name "Startup Platform"; choose a name of your own'],
    ['a Cyrillic о among Latin letters', 'G\u043e\u043egle Maps', 'Invalid name: the word "G\u043e\u043egle" mixes Latin and Cyrillic letters (a look-alike of another name); write each word in one script'],
  ])('refuses a look-alike name (%s) and changes nothing', async (_case, name, message) => {
    const before = (await list()).length;
    const result = await cli('clients:create', '--name', name, '--redirect-uri', 'https://portal.example/cb', '--scopes', 'profile');
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(message);
    expect(await list()).toHaveLength(before);
  });

  it('accepts honest names in one script per word', async () => {
    for (const name of ['Girişim Ağı Öğrenci', 'Яндекс Карты', 'Ελληνικά Νέα', '株式会社テスト', 'Moscow Москва']) {
      const result = await cli('clients:create', '--name', name, '--redirect-uri', 'https://portal.example/cb', '--scopes', 'profile');
      expect([name, result.status, result.stderr]).toEqual([name, 0, '']);
    }
    expect((await list()).map((client) => client.name)).toEqual(expect.arrayContaining(['Girişim Ağı Öğrenci', 'Яндекс Карты', 'Ελληνικά Νέα', '株式会社テスト', 'Moscow Москва']));
  });

  it('rotates a confidential client\'s secret and refuses to for a public client or an unknown one', async () => {
    const [confidential, publicClient] = await list();
    const rotated = await cli('clients:rotate-secret', String(confidential.client_id));
    expect(rotated.status).toBe(0);
    expect(rotated.json).toEqual({ client_id: confidential.client_id, client_secret: expect.stringMatching(/^sp_cs_/) });

    const refused = await cli('clients:rotate-secret', String(publicClient.client_id));
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toBe(`Client ${publicClient.client_id} is public and has no secret`);

    const unknown = await cli('clients:rotate-secret', 'sp_client_nobody');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr.trim()).toBe('Unknown client: sp_client_nobody');
  });

  it('unverifies and verifies a client, shown by clients:list, and refuses an unknown one changing nothing', async () => {
    const [confidential] = await list();
    expect(confidential.verified).toBe(true);

    const unverified = await cli('clients:unverify', String(confidential.client_id));
    expect(unverified.status).toBe(0);
    expect(unverified.stdout.trim().split('\n')).toHaveLength(1);
    expect(unverified.json).toEqual({ client_id: confidential.client_id, verified: false });
    expect((await list()).find((c) => c.client_id === confidential.client_id)!.verified).toBe(false);
    const text = await runCli(['clients:list'], env);
    expect(text.stdout).toContain(`${confidential.client_id}  confidential  Partner Portal`);
    expect(text.stdout.split('\n').find((line) => line.startsWith(String(confidential.client_id)))).toMatch(/ unverified$/);

    const before = await list();
    for (const command of ['clients:verify', 'clients:unverify']) {
      const unknown = await cli(command, 'sp_client_nobody');
      expect(unknown.status).toBe(1);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr.trim().split('\n')).toEqual(['Unknown client: sp_client_nobody']);
      const missing = await cli(command);
      expect(missing.status).not.toBe(0);
      expect(missing.stdout).toBe('');
    }
    expect(await list()).toEqual(before);

    const verified = await cli('clients:verify', String(confidential.client_id));
    expect(verified.status).toBe(0);
    expect(verified.json).toEqual({ client_id: confidential.client_id, verified: true });
    expect((await list()).find((c) => c.client_id === confidential.client_id)!.verified).toBe(true);
    const human = await runCli(['clients:verify', String(confidential.client_id)], env);
    expect(human.stdout.trim()).toBe(`Client ${confidential.client_id} is now verified`);
  });

  it('deletes a client and refuses an unknown one', async () => {
    const [, publicClient] = await list();
    const deleted = await cli('clients:delete', String(publicClient.client_id));
    expect(deleted.status).toBe(0);
    expect(deleted.json).toEqual({ client_id: publicClient.client_id, deleted: true });
    expect((await list()).map((c) => c.client_id)).not.toContain(publicClient.client_id);

    const again = await cli('clients:delete', String(publicClient.client_id));
    expect(again.status).toBe(1);
    expect(again.stderr.trim()).toBe(`Unknown client: ${publicClient.client_id}`);
  });

  it('purges expired codes and tokens', async () => {
    const result = await cli('tokens:purge');
    expect(result.status).toBe(0);
    expect(result.json).toEqual({ codes: 0, accessTokens: 0, refreshTokens: 0, securityEvents: 0, endedSessions: 0, dpopProofs: 0, pendingSignUps: 0, mailLinks: 0, unusedRegistrations: 0 });
  });
});

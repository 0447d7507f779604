import { spawnSync } from 'node:child_process';
import { Logger } from '@nestjs/common';
import { calculateJwkThumbprint, createLocalJWKSet, createRemoteJWKSet, exportJWK, generateKeyPair, JWK, jwtVerify, SignJWT } from 'jose';
import { DataSource } from 'typeorm';
import { KeyEncryption, signingKeyAad } from '../../src/oidc/keys/key-encryption';
import { ACTIVATION_DELAY_MS, KEY_CACHE_MS, SigningAlg, SigningKeysService } from '../../src/oidc/keys/signing-keys.service';
import { TestClock } from '../helpers/clock';
import { http } from '../helpers/http';
import { builtEntry, CliResult, ROOT, runCli, ServiceProcess, startService } from '../helpers/processes';
import { queryStorage } from '../helpers/storage-query';
import { engine, freePort, isolatedStorage, startTestApp, TestApp } from '../helpers/test-app';

/**
 * The ID-token signing keys (README.md, Commands; docs/integrate-with-oauth.md, OpenID Connect): made on the first start, stored encrypted, served as a JWK
 * Set, listed and rotated with the CLI, followed by every running instance within 10 s.
 */
const SECRET = 'the key encryption secret of this suite, 32+ characters';
const OTHER_SECRET = 'another key encryption secret, also 32+ characters';
const ID_TOKEN_TTL = 600;
// RFC 7518 §6.2.2, §6.3.2, §6.4: members that only a private (or symmetric) key has.
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface KeyRow {
  kid: string;
  alg: SigningAlg;
  state: string;
  public_jwk: string;
  private_key: string;
  deactivated_at: string | number | null;
  retire_at: string | number | null;
}

function expectCliError(result: CliResult, message: RegExp): void {
  expect([result.status, result.stdout]).toEqual([1, '']);
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(message);
}

/** The JWK Set must hold public keys only, each with exactly its type's members. */
function expectPublicOnly(keys: JWK[]): void {
  for (const key of keys) {
    const members = Object.keys(key).sort();
    expect(members).toEqual(key.kty === 'RSA' ? ['alg', 'e', 'kid', 'kty', 'n', 'use'] : ['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    for (const member of PRIVATE_MEMBERS) expect(key).not.toHaveProperty(member);
    expect(key).toMatchObject({ use: 'sig', alg: key.kty === 'RSA' ? 'RS256' : 'ES256' });
  }
}

async function signWith(service: SigningKeysService, alg: SigningAlg, issuer: string): Promise<{ jwt: string; kid: string }> {
  const { kid, key } = await service.signingKey(alg);
  const jwt = await new SignJWT({ sub: '42' }).setProtectedHeader({ alg, kid, typ: 'JWT' }).setIssuer(issuer).setAudience('client-1').setIssuedAt().setExpirationTime('5m').sign(key);
  return { jwt, kid };
}

describe('ID-token signing keys', () => {
  let t: TestApp;
  let keys: SigningKeysService;
  // The instance's Clock: a reread (every KEY_CACHE_MS) and a new key's first use (ACTIVATION_DELAY_MS
  // after it was made) happen when the test moves it, never after a wait.
  let clock: TestClock;
  const cli = (...args: string[]) => runCli(args, { ...t.env, KEY_ENCRYPTION_SECRET: SECRET });
  const rows = (): Promise<KeyRow[]> => t.app.get(DataSource).query('SELECT kid, alg, state, public_jwk, private_key, deactivated_at, retire_at FROM signing_keys ORDER BY created_at, kid');

  beforeAll(async () => {
    t = await startTestApp({ KEY_ENCRYPTION_SECRET: SECRET, ID_TOKEN_TTL: String(ID_TOKEN_TTL) });
    keys = t.app.get(SigningKeysService);
    clock = new TestClock(t.app);
  });
  afterAll(async () => {
    clock?.restore();
    await t?.close();
  });

  it('makes one active RS256 and one active ES256 key on the first start, the private part only encrypted', async () => {
    const stored = await rows();
    expect(stored.map((row) => [row.alg, row.state]).sort()).toEqual([
      ['ES256', 'active'],
      ['RS256', 'active'],
    ]);
    const encryption = new KeyEncryption(SECRET);
    for (const row of stored) {
      expect(row.private_key).toMatch(/^v1\.[\w-]{12}\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
      const privateJwk = JSON.parse(encryption.decrypt(row.private_key, signingKeyAad(row.kid, row.alg))) as Record<string, string>;
      expect(privateJwk.d).toEqual(expect.any(String));
      // The raw row, every column: no private member in clear, and the public JWK is public only.
      const raw = JSON.stringify(row);
      for (const member of PRIVATE_MEMBERS) if (privateJwk[member]) expect(raw).not.toContain(privateJwk[member]);
      expectPublicOnly([JSON.parse(row.public_jwk) as JWK]);
      expect(await calculateJwkThumbprint(JSON.parse(row.public_jwk) as JWK)).toBe(row.kid);
    }
  });

  it('serves the published public keys at /oauth/jwks: a plain JWK Set, cacheable, open to anyone', async () => {
    const res = await http(t.url, '/oauth/jwks');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toEqual(['keys']);
    expect(res.body.keys.map((k: JWK) => k.kid).sort()).toEqual((await rows()).map((row) => row.kid).sort());
    expectPublicOnly(res.body.keys);
    expect(res.body).toEqual(await keys.jwks());
  });

  it.each(['RS256', 'ES256'] as const)('signs with signingKey(%s) what the served JWK Set verifies', async (alg) => {
    const { jwt, kid } = await signWith(keys, alg, t.url);
    const remote = createRemoteJWKSet(new URL('/oauth/jwks', t.url));
    const { protectedHeader, payload } = await jwtVerify(jwt, remote, { issuer: t.url, audience: 'client-1', algorithms: [alg] });
    expect(protectedHeader).toMatchObject({ alg, kid });
    expect(payload.sub).toBe('42');
    // The same set, in process, as a verifier of an id_token_hint uses it.
    await expect(jwtVerify(jwt, createLocalJWKSet(await keys.jwks()), { algorithms: [alg] })).resolves.toBeDefined();
    // A signature by another key with the same kid does not verify.
    const forged = `${jwt.slice(0, jwt.lastIndexOf('.'))}.${Buffer.from('forged').toString('base64url')}`;
    await expect(jwtVerify(forged, remote)).rejects.toThrow();
  });

  it('lists the keys with keys:list --json in exactly the contract’s shape, one active key per algorithm', async () => {
    const res = await cli('keys:list', '--json');
    expect(res.status).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    expect(Object.keys(res.json)).toEqual(['keys']);
    for (const key of res.json.keys) {
      expect(Object.keys(key)).toEqual(['kid', 'alg', 'state', 'createdAt']);
      expect(key.createdAt).toMatch(ISO);
    }
    expect(res.json.keys.filter((k: { state: string }) => k.state === 'active').map((k: { alg: string }) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    const human = await cli('keys:list');
    expect(human.status).toBe(0);
    for (const key of res.json.keys) expect(human.stdout).toContain(`${key.kid}\t${key.alg}\t${key.state}`);
  });

  it('refuses a bad --alg, a missing secret and another secret with one line each, and changes nothing', async () => {
    const before = await rows();
    expectCliError(await cli('keys:rotate', '--alg', 'HS256', '--json'), /^Invalid --alg: "HS256" \(use RS256 or ES256\)$/);
    const { KEY_ENCRYPTION_SECRET: _configured, ...withoutSecret } = t.env;
    expectCliError(await runCli(['keys:rotate', '--json'], { ...withoutSecret, DEV_SECRETS_FILE: 'off' }), /^keys:rotate needs KEY_ENCRYPTION_SECRET/);
    const other = await runCli(['keys:rotate', '--json'], { ...t.env, KEY_ENCRYPTION_SECRET: OTHER_SECRET });
    expectCliError(other, /^KEY_ENCRYPTION_SECRET does not decrypt the active (RS256|ES256) signing key [\w-]{43}: it was encrypted under another secret; use the secret the keys were made with; nothing changed$/);
    expect(await rows()).toEqual(before);
  });

  it('rotates with keys:rotate: every key signs anew within 10 s, the previous ones stay published and keep verifying', async () => {
    const before = await Promise.all((['RS256', 'ES256'] as const).map((alg) => signWith(keys, alg, t.url)));
    const res = await cli('keys:rotate', '--json');
    expect(res.status).toBe(0);
    expect(Object.keys(res.json)).toEqual(['rotated']);
    expect(res.json.rotated.map((k: { alg: string; state: string }) => [k.alg, k.state]).sort()).toEqual([
      ['ES256', 'active'],
      ['RS256', 'active'],
    ]);
    const fresh = new Map<string, string>(res.json.rotated.map((k: { alg: string; kid: string }) => [k.alg, k.kid]));
    // A new key does not sign before every instance can have read it (4 s after it was made)...
    const made = Date.parse(res.json.rotated[0].createdAt);
    clock.setTo(made + ACTIVATION_DELAY_MS - 1);
    for (const [i, alg] of (['RS256', 'ES256'] as const).entries()) expect((await keys.signingKey(alg)).kid).toBe(before[i].kid);
    // ...and from then on this running instance signs with it (well within 10 s); whenever it signs with
    // a key, its own JWK Set already lists that key.
    clock.setTo(made + ACTIVATION_DELAY_MS);
    for (const alg of ['RS256', 'ES256'] as const) {
      const { kid } = await keys.signingKey(alg);
      expect(kid).toBe(fresh.get(alg));
      expect((await keys.jwks()).keys.map((k) => k.kid)).toContain(kid);
    }

    const listed = (await cli('keys:list', '--json')).json.keys as Array<{ kid: string; state: string }>;
    expect(listed).toHaveLength(4);
    for (const { kid } of before) expect(listed.find((k) => k.kid === kid)?.state).toBe('published');
    for (const kid of fresh.values()) expect(listed.find((k) => k.kid === kid)?.state).toBe('active');

    // Published until every ID token the old keys signed has expired: ID_TOKEN_TTL plus a 5-minute margin.
    for (const row of (await rows()).filter((r) => r.state === 'published')) {
      expect(Number(row.retire_at) - Number(row.deactivated_at)).toBe((ID_TOKEN_TTL + 300) * 1000);
    }
    const served = (await http(t.url, '/oauth/jwks')).body;
    expect(served.keys).toHaveLength(4);
    expectPublicOnly(served.keys);
    const remote = createRemoteJWKSet(new URL('/oauth/jwks', t.url));
    for (const { jwt } of before) await expect(jwtVerify(jwt, remote)).resolves.toBeDefined();
    for (const alg of ['RS256', 'ES256'] as const) {
      const { jwt, kid } = await signWith(keys, alg, t.url);
      expect(kid).toBe(fresh.get(alg));
      expect((await jwtVerify(jwt, remote)).protectedHeader.kid).toBe(kid);
    }
  });

  it('rotates one algorithm with --alg, leaving the other’s key active', async () => {
    const activeBefore = (await rows()).filter((row) => row.state === 'active');
    const res = await cli('keys:rotate', '--alg', 'ES256', '--json');
    expect(res.status).toBe(0);
    expect(res.json.rotated).toEqual([{ kid: expect.stringMatching(/^[\w-]{43}$/), alg: 'ES256', state: 'active', createdAt: expect.stringMatching(ISO) }]);
    const active = (await rows()).filter((row) => row.state === 'active');
    expect(active.find((row) => row.alg === 'RS256')?.kid).toBe(activeBefore.find((row) => row.alg === 'RS256')?.kid);
    expect(active.find((row) => row.alg === 'ES256')?.kid).toBe(res.json.rotated[0].kid);
  });

  it('keeps signing with the key it has when a new one was made under another secret, and says so once in the log', async () => {
    const source = t.app.get(DataSource);
    const [{ kid: activeKid }] = await source.query("SELECT kid FROM signing_keys WHERE alg = 'ES256' AND state = 'active'");
    // Past the activation of the key the last test made, and past a reread.
    clock.setTo(Math.max(clock.now() + KEY_CACHE_MS, Date.now() + ACTIVATION_DELAY_MS));
    const current = await keys.signingKey('ES256');
    expect(current.kid).toBe(activeKid);
    // What an instance or a CLI run with another KEY_ENCRYPTION_SECRET would have stored.
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    const ciphertext = new KeyEncryption(OTHER_SECRET).encrypt(JSON.stringify(await exportJWK(privateKey)), signingKeyAad(kid, 'ES256'));
    const now = Date.now();
    const errors = jest.spyOn(Logger.prototype, 'error');
    try {
      await source.query(`UPDATE signing_keys SET state = 'published', deactivated_at = ${now}, retire_at = ${now + 3_600_000} WHERE kid = '${current.kid}'`);
      await source.query(
        `INSERT INTO signing_keys (kid, alg, state, public_jwk, private_key, generated_secret, created_at) VALUES ('${kid}', 'ES256', 'active', '${JSON.stringify({ ...publicJwk, kid, alg: 'ES256', use: 'sig' })}', '${ciphertext}', 0, ${now - 10_000})`,
      );
      // Two rereads later: still the key it can use, the new one published, one error line.
      clock.advance(KEY_CACHE_MS);
      expect((await keys.jwks()).keys.map((k) => k.kid)).toContain(kid);
      expect((await keys.signingKey('ES256')).kid).toBe(current.kid);
      clock.advance(KEY_CACHE_MS);
      expect((await keys.signingKey('ES256')).kid).toBe(current.kid);
      // Logged as ({ kid, alg, reason }, message).
      const lines = errors.mock.calls.filter((args) => JSON.stringify(args).includes(kid));
      expect(lines).toHaveLength(1);
      expect(lines[0][0]).toEqual({ kid, alg: 'ES256', reason: 'other-secret' });
      expect(lines[0][1]).toMatch(/^KEY_ENCRYPTION_SECRET does not decrypt the active ES256 signing key .*; this instance keeps signing with the key it has$/);
    } finally {
      errors.mockRestore();
      await source.query(`DELETE FROM signing_keys WHERE kid = '${kid}'`);
      await source.query(`UPDATE signing_keys SET state = 'active', deactivated_at = NULL, retire_at = NULL WHERE kid = '${current.kid}'`);
    }
  });

  it('keeps serving the keys it read last while the database cannot be read, and follows again after', async () => {
    const served = (await http(t.url, '/oauth/jwks')).body;
    const source = t.app.get(DataSource);
    // The table disappears for a moment (as if the database did); renamed back afterwards.
    await source.query('ALTER TABLE signing_keys RENAME TO signing_keys_away');
    try {
      // Past the time it would reread.
      clock.advance(KEY_CACHE_MS);
      const during = await http(t.url, '/oauth/jwks');
      expect(during.status).toBe(200);
      expect(during.body).toEqual(served);
      await expect(keys.signingKey('RS256')).resolves.toMatchObject({ alg: 'RS256' });
    } finally {
      await source.query('ALTER TABLE signing_keys_away RENAME TO signing_keys');
    }
    expect((await http(t.url, '/oauth/jwks')).body).toEqual(served);
  });

  it('retires a published key once the ID tokens it signed have expired: out of the JWK Set, "retired" in keys:list', async () => {
    const published = (await rows()).filter((row) => row.state === 'published');
    expect(published.length).toBeGreaterThan(0);
    const [expired, ...stillValid] = published;
    await t.app.get(DataSource).query(`UPDATE signing_keys SET retire_at = ${Date.now() - 1} WHERE kid = '${expired.kid}'`);
    // keys:list reads the time itself; the JWK Set of a running instance follows at its next reread.
    expect((await cli('keys:list', '--json')).json.keys.find((k: { kid: string }) => k.kid === expired.kid).state).toBe('retired');
    clock.advance(KEY_CACHE_MS);
    expect((await http(t.url, '/oauth/jwks')).body.keys.map((k: JWK) => k.kid)).not.toContain(expired.kid);
    const served = (await http(t.url, '/oauth/jwks')).body.keys.map((k: JWK) => k.kid);
    for (const row of stillValid) expect(served).toContain(row.kid);
    expect((await rows()).find((row) => row.kid === expired.kid)?.state).toBe('retired');
  });
});

describe('a start with signing keys it cannot read', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  const startMain = (env: Record<string, string>) =>
    spawnSync(process.execPath, [builtEntry('main')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', SEED_DEMO_DATA: 'false', PORT: '0', ...storage.env, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  beforeAll(async () => {
    storage = await isolatedStorage();
    // The keys exist before any start: keys:rotate on an empty table makes them.
    expect((await runCli(['keys:rotate', '--json'], { ...storage.env, KEY_ENCRYPTION_SECRET: SECRET })).status).toBe(0);
  });
  afterAll(() => storage?.drop());

  it('stops with one clear line under another KEY_ENCRYPTION_SECRET, printing nothing of the keys', async () => {
    const result = startMain({ KEY_ENCRYPTION_SECRET: OTHER_SECRET });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^Startup failed: KEY_ENCRYPTION_SECRET does not decrypt the active (RS256|ES256) signing key [\w-]{43}: it was encrypted under another secret; use the secret the keys were made with$/)]);
    expect(result.stdout).not.toContain('listening');
    const [row] = await queryStorage<{ private_key: string }>(storage.env, "SELECT private_key FROM signing_keys WHERE alg = 'RS256'");
    expect(`${result.stdout}${result.stderr}`).not.toContain(row.private_key.split('.')[4].slice(0, 16));
  });

  it('stops with one clear line when a stored key was modified', async () => {
    const [row] = await queryStorage<{ kid: string; private_key: string }>(storage.env, "SELECT kid, private_key FROM signing_keys WHERE alg = 'ES256'");
    const parts = row.private_key.split('.');
    const ciphertext = Buffer.from(parts[4], 'base64url');
    ciphertext[0] ^= 1;
    parts[4] = ciphertext.toString('base64url');
    await queryStorage(storage.env, `UPDATE signing_keys SET private_key = '${parts.join('.')}' WHERE kid = '${row.kid}'`);
    const result = startMain({ KEY_ENCRYPTION_SECRET: SECRET });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([`Startup failed: The active ES256 signing key ${row.kid} cannot be decrypted: the encrypted key fails its integrity check (it was modified)`]);
  });
});

describe('development without KEY_ENCRYPTION_SECRET and with DEV_SECRETS_FILE=off', () => {
  it('replaces at each start the keys the previous start made under its generated secret, keeping them published', async () => {
    const storage = await isolatedStorage();
    storage.env.DEV_SECRETS_FILE = 'off';
    try {
      const first = await startTestApp({ ...storage.env });
      const firstKids = (await first.app.get(SigningKeysService).jwks()).keys.map((k) => k.kid);
      const { jwt } = await signWith(first.app.get(SigningKeysService), 'RS256', first.url);
      await first.close();

      const second = await startTestApp({ ...storage.env });
      try {
        const listed = (await runCli(['keys:list', '--json'], storage.env)).json.keys as Array<{ kid: string; state: string }>;
        expect(listed).toHaveLength(4);
        for (const kid of firstKids) expect(listed.find((k) => k.kid === kid)?.state).toBe('published');
        const service = second.app.get(SigningKeysService);
        // It signs with its own new key at once (the old one cannot be read), and still verifies the old tokens.
        expect(firstKids).not.toContain((await service.signingKey('RS256')).kid);
        await expect(jwtVerify(jwt, createRemoteJWKSet(new URL('/oauth/jwks', second.url)))).resolves.toBeDefined();
        await expect(jwtVerify((await signWith(service, 'RS256', second.url)).jwt, createLocalJWKSet(await service.jwks()))).resolves.toBeDefined();
      } finally {
        await second.close();
      }
    } finally {
      await storage.drop();
    }
  });
});

/**
 * Instances on one PostgreSQL (docs/configuration-and-deployment.md): started together they make one key per algorithm, and a
 * rotation by the CLI reaches every running instance within 10 s.
 */
const shared = engine() === 'postgres' ? describe : describe.skip;

shared('signing keys shared by instances on one PostgreSQL', () => {
  it('makes exactly one key per algorithm when two instances start together on an empty database', async () => {
    const storage = await isolatedStorage();
    const env = { ...storage.env, SEED_DEMO_DATA: 'false', LOG_LEVEL: 'warn', KEY_ENCRYPTION_SECRET: SECRET };
    let services: ServiceProcess[] = [];
    try {
      services = await Promise.all([startService(env, await freePort()), startService(env, await freePort())]);
      const stored = await queryStorage<{ alg: string; state: string }>(storage.env, 'SELECT alg, state FROM signing_keys ORDER BY alg');
      expect(stored).toEqual([
        { alg: 'ES256', state: 'active' },
        { alg: 'RS256', state: 'active' },
      ]);
      const [a, b] = await Promise.all(services.map((s) => http(s.url, '/oauth/jwks')));
      expect(a.body).toEqual(b.body);
      expect(a.body.keys).toHaveLength(2);
    } finally {
      for (const service of services) service.child.kill('SIGTERM');
      for (const service of services) expect(await service.exited).toBe(0);
      await storage.drop();
    }
  }, 300_000);

  it('has both running instances sign with the rotated keys within 10 s, each verifying the other’s ID tokens', async () => {
    const storage = await isolatedStorage();
    const env = { ...storage.env, KEY_ENCRYPTION_SECRET: SECRET };
    const a = await startTestApp(env);
    const b = await startTestApp(env);
    try {
      const instances = [a, b].map((app) => ({ url: app.url, keys: app.app.get(SigningKeysService), clock: new TestClock(app.app) }));
      for (const alg of ['RS256', 'ES256'] as const) expect((await instances[0].keys.signingKey(alg)).kid).toBe((await instances[1].keys.signingKey(alg)).kid);
      const rotation = await runCli(['keys:rotate', '--json'], env);
      expect(rotation.status).toBe(0);
      const fresh = new Map<string, string>(rotation.json.rotated.map((k: { alg: string; kid: string }) => [k.alg, k.kid]));
      const made = Date.parse(rotation.json.rotated[0].createdAt);
      // Each instance's Clock is set to either side of the new keys' first use (ACTIVATION_DELAY_MS after
      // they were made, well within 10 s), whatever time the CLI and the machine took.
      for (const [i, instance] of instances.entries()) {
        instance.clock.setTo(made + ACTIVATION_DELAY_MS - 1);
        for (const alg of ['RS256', 'ES256'] as const) expect([i, alg, (await instance.keys.signingKey(alg)).kid]).not.toEqual([i, alg, fresh.get(alg)]);
      }
      for (const [i, instance] of instances.entries()) {
        instance.clock.setTo(made + ACTIVATION_DELAY_MS);
        for (const alg of ['RS256', 'ES256'] as const) {
          expect([i, alg, (await instance.keys.signingKey(alg)).kid]).toEqual([i, alg, fresh.get(alg)]);
          const { jwt } = await signWith(instance.keys, alg, instance.url);
          // Each instance's token verifies against the other's JWK Set.
          const other = instances[1 - i];
          await expect(jwtVerify(jwt, createRemoteJWKSet(new URL('/oauth/jwks', other.url)))).resolves.toBeDefined();
        }
      }
    } finally {
      await a.close();
      await b.close();
      await storage.drop();
    }
  }, 300_000);
});

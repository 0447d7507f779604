#!/usr/bin/env node
// `npm run bench`: the service against its peers, side by side, in one run. See bench/README.md.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Map(
  process.argv.slice(2).map((a) => {
    const [key, ...value] = a.replace(/^--/, '').split('=');
    return [key, value.length > 0 ? value.join('=') : 'true'];
  }),
);
const num = (name, fallback) => (args.has(name) ? Number(args.get(name)) : fallback);

const SETTINGS = {
  rounds: num('rounds', 3),
  seconds: num('seconds', 5),
  warmupSeconds: num('warmup', 2),
  connections: num('connections', 50),
  startups: num('startups', 100_000),
  smallStartups: 1_000,
  users: num('users', 1000),
};
/** PD: how many pending device codes its polls take turns over. */
const DEVICE_CODES = 1000;
const only = args.has('only') ? new Set(args.get('only').split(',')) : undefined;
const profileDir = args.get('cpu-prof'); // --cpu-prof=DIR: the service runs under `node --cpu-prof`
// The service runs as `npm start` runs it, with the Node options of package.json's start script (the V8
// heap cap of the deployment guide). --node-options="…" replaces them (`--node-options=` runs plain
// `node dist/main.js`); such a run is a variant and does not replace the results of the default one.
const startScript = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
const deployedNodeOptions = (/\bnode((?: --\S+)*) dist\/main\.js/.exec(startScript)?.[1] ?? '').split(' ').filter(Boolean);
const serviceNodeOptions = args.has('node-options') ? args.get('node-options').split(' ').filter(Boolean) : deployedNodeOptions;
const variant = only !== undefined || args.has('node-options');

const started = Date.now();
const tmp = mkdtempSync(join(tmpdir(), 'sp-bench-'));
const children = [];
const log = (line) => process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(3)}s] ${line}\n`);

process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

// ---------------------------------------------------------------------------------------------- setup

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const LIMIT = '1000000'; // the configuration's maximum: the bench measures speed, not the limiter's 429s
// One per run: every process on a database (the CLI, the service and its metered copy) reads the same signing keys.
const keyEncryptionSecret = randomBytes(32).toString('base64url');
function serviceEnv(sqlitePath, port) {
  return {
    ...process.env,
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    KEY_ENCRYPTION_SECRET: keyEncryptionSecret,
    SQLITE_PATH: sqlitePath,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'info',
    PURGE_INTERVAL: '0',
    RATE_LIMIT_ANONYMOUS: LIMIT,
    RATE_LIMIT_STANDARD: LIMIT,
    RATE_LIMIT_PARTNER: LIMIT,
    RATE_LIMIT_CLIENT: LIMIT,
    // PD polls codes made at the start: the longest life allowed, so that none expires during the run.
    DEVICE_CODE_TTL: '1800',
    REDIS_URL: '',
    DATABASE_URL: '',
  };
}

function cli(sqlitePath, ...command) {
  const out = execFileSync(process.execPath, [join(root, 'dist/cli.js'), ...command, '--json'], {
    cwd: root,
    env: { ...serviceEnv(sqlitePath, 0), LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.toString());
}

/** A database seeded through the CLI only: a client, a partner API key, N startups, users with tokens. */
function seedDatabase(name, startups, users) {
  const file = join(tmp, `${name}.sqlite`);
  const client = cli(file, 'clients:create', '--name', 'Bench', '--redirect-uri', 'http://127.0.0.1:8080/callback', '--scopes', 'profile read:startups');
  const apiKey = cli(file, 'api-keys:create', '--name', 'Bench', '--tier', 'partner');
  const seeded = cli(file, 'seed', '--startups', String(startups), '--users', String(users), '--tokens-for', client.client_id);
  return { file, client, apiKey: apiKey.key, grants: seeded.grants, startups: seeded.startupsTotal };
}

/**
 * Two more clients on a seeded database, for the cost of an ID token: P4's scope plus `openid`, one
 * registered for RS256 ID tokens and one for ES256, each with a grant for every seed user (the users
 * exist already; `seed` only adds the grants).
 */
function seedOpenIdClients(db, startups, users) {
  const clients = {};
  for (const alg of ['RS256', 'ES256']) {
    const client = cli(db.file, 'clients:create', '--name', `Bench OIDC ${alg}`, '--redirect-uri', 'http://127.0.0.1:8080/callback', '--scopes', 'openid profile read:startups', '--id-token-alg', alg);
    const seeded = cli(db.file, 'seed', '--startups', String(startups), '--users', String(users), '--tokens-for', client.client_id);
    clients[alg] = { client, grants: seeded.grants };
  }
  return clients;
}

/** PD: a public client allowed the Device Authorization Grant (RFC 8628), made by the CLI like the others. */
function seedDeviceClient(db) {
  return cli(db.file, 'clients:create', '--name', 'Bench device', '--redirect-uri', 'http://127.0.0.1/unused', '--scopes', 'profile', '--public', '--device-flow');
}

/** PD: device codes nobody will approve, from the device authorization endpoint as a device gets them (10 at a time). */
async function pendingDeviceCodes(baseUrl, clientId, count) {
  const codes = [];
  const next = async () => {
    while (codes.length < count) {
      const res = await fetch(`${baseUrl}/oauth/device_authorization`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ client_id: clientId, scope: 'profile' }),
      });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`the device authorization endpoint answered ${res.status}: ${JSON.stringify(body)}`);
      codes.push(body.device_code);
    }
  };
  await Promise.all(Array.from({ length: 10 }, next));
  return codes.slice(0, count);
}

/**
 * PD's answers: a poll of a pending code is a 400 by design (RFC 8628 §3.5), `authorization_pending` or,
 * polled again within the interval, `slow_down`. Exactly these count as answered; anything else (another
 * status, another error such as `expired_token`) is counted like a non-2xx answer of the other scenarios.
 */
const DEVICE_POLL_ERRORS = new Set(['authorization_pending', 'slow_down']);
function isPendingPollAnswer(status, body) {
  if (status !== 400) return false;
  try {
    return DEVICE_POLL_ERRORS.has(JSON.parse(body).error);
  } catch {
    return false;
  }
}

function startProcess(name, argv, env) {
  const child = spawn(process.execPath, argv, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  child.on('exit', (code, signal) => {
    if (!shuttingDown) {
      log(`${name} exited (${code ?? signal}); its stderr:\n${stderr}`);
      process.exit(1);
    }
  });
  children.push(child);
  return child;
}
let shuttingDown = false;

async function waitFor(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** VmHWM: the peak resident set of a process since it started, in MB. */
function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

// ----------------------------------------------------------------------------------------- scenarios

const form = (fields) => new URLSearchParams(fields).toString();
const basic = (id, secret) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** Requests that take turns over a list (one token per request, round robin). */
function rotating(values, build) {
  let i = 0;
  return [{ setupRequest: (request) => ({ ...request, ...build(values[i++ % values.length]) }) }];
}

/**
 * A DPoP key (RFC 9449 §4) and a synchronous proof maker, since autocannon's setupRequest cannot wait:
 * ES256 through node:crypto, the JWS built by hand (RFC 7515 §7.1), a fresh `jti` every time.
 */
function dpopSigner() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const jkt = createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest('base64url');
  const header = Buffer.from(JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } })).toString('base64url');
  const proof = (htm, htu, accessToken) => {
    const claims = { jti: randomUUID(), htm, htu, iat: Math.floor(Date.now() / 1000) };
    if (accessToken) claims.ath = createHash('sha256').update(accessToken).digest('base64url');
    const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
  };
  return { jkt, proof };
}

/**
 * DPoP-bound access tokens for P2d, through the token endpoint as a client gets them: a refresh of some
 * seeded grants with a proof (the bench's client is confidential, so its refresh tokens stay unbound and
 * the grant's new head replaces the old in `grants`, for P4's chains).
 */
async function dpopBoundTokens(baseUrl, auth, grants, signer, count) {
  const tokens = [];
  for (const grant of grants.slice(-count)) {
    const res = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', dpop: signer.proof('POST', `${baseUrl}/oauth/token`) },
      body: form({ grant_type: 'refresh_token', refresh_token: grant.refresh_token }),
    });
    const body = await res.json();
    if (res.status !== 200 || body.token_type !== 'DPoP') throw new Error(`a DPoP-bound refresh answered ${res.status}: ${JSON.stringify(body)}`);
    grant.refresh_token = body.refresh_token;
    tokens.push(body.access_token);
  }
  return tokens;
}

/**
 * RFC 6749 §6 with rotation: every chain is followed by one connection at a time, which sends the refresh
 * token of the chain's previous answer. A request checks a chain out and its answer checks it back in
 * with the new head; a request cut off at the end of a run keeps its chain out for good, since whether the
 * server rotated it is unknown (presenting it again would be a replay, which revokes the family).
 */
function refreshChains(heads, auth) {
  const free = heads.map((_, i) => i);
  return [
    {
      method: 'POST',
      setupRequest: (request, context) => {
        context.chain = free.shift();
        if (context.chain === undefined) throw new Error('every refresh chain is in use or lost: seed more users');
        return {
          ...request,
          headers: { ...request.headers, authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: form({ grant_type: 'refresh_token', refresh_token: heads[context.chain] }),
        };
      },
      onResponse: (status, body, context) => {
        if (status === 200) {
          heads[context.chain] = JSON.parse(body).refresh_token;
          free.push(context.chain);
        } else if (process.env.BENCH_DEBUG) log(`refresh answered ${status}: ${body}`);
      },
    },
  ];
}

/**
 * autocannon stops counting at the end of its duration, but the requests it left in flight are still
 * queued in the server: wait until the server answers again, so that the next measurement (of this or
 * another process on the same cores) does not pay for them.
 */
async function settle(url) {
  const health = new URL(url);
  health.pathname = health.port === String(oidcPort) ? '/.well-known/openid-configuration' : '/health';
  health.search = '';
  for (let i = 0; i < 3; i++) await fetch(health).then((r) => r.arrayBuffer(), () => undefined);
  await new Promise((resolve) => setTimeout(resolve, 200));
}
let oidcPort;

/** Answers autocannon received, per target URL, over every load (preflight and warm-up included). */
const answered = new Map();

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ, 100 on Linux
}

/**
 * Loads `url`; with `pid`, also the CPU that process spent per answered request (µs), robust to how busy
 * the machine is. With `accepts(status, body)`, the answers it accepts are the expected ones instead of
 * the 2xx (PD), and `non2xx` counts the others.
 */
async function load(url, requests, seconds, pid, accepts) {
  const cpuBefore = pid ? cpuSeconds(pid) : 0;
  let unexpected = 0;
  const checked = accepts
    ? requests.map((r) => ({
        ...r,
        onResponse: (status, body, context) => {
          if (!accepts(status, body)) {
            unexpected++;
            if (process.env.BENCH_DEBUG) log(`unexpected answer ${status}: ${body}`);
          }
          r.onResponse?.(status, body, context);
        },
      }))
    : requests;
  const result = await autocannon({ url, connections: SETTINGS.connections, duration: seconds, requests: checked, timeout: 20 });
  answered.set(url, (answered.get(url) ?? 0) + result.requests.total);
  await settle(url);
  const cpuUsPerRequest = pid && result.requests.total > 0 ? ((cpuSeconds(pid) - cpuBefore) * 1e6) / result.requests.total : undefined;
  return {
    cpuUsPerRequest,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: (accepts ? unexpected : result.non2xx) + result.errors + result.timeouts,
    total: result.requests.total,
  };
}

// ------------------------------------------------------------------------------------------------ run

async function main() {
  log('building dist/ (npm run build)');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });

  log(`seeding: ${SETTINGS.startups} startups and ${SETTINGS.users} users with tokens, through the CLI`);
  const big = seedDatabase('big', SETTINGS.startups, SETTINGS.users);
  const small = seedDatabase('small', SETTINGS.smallStartups, 10);
  const openIdClients = seedOpenIdClients(big, SETTINGS.startups, SETTINGS.users);
  const deviceClient = seedDeviceClient(big);
  log(`seeded (${big.startups} and ${small.startups} startups, ${big.grants.length} grants)`);

  const ports = {
    service: await freePort(),
    small: await freePort(),
    bare: await freePort(),
    ceiling: await freePort(),
    oidc: await freePort(),
    metered: await freePort(),
    metrics: await freePort(),
    twin: await freePort(),
  };
  oidcPort = ports.oidc;
  const nodeFlags = [...serviceNodeOptions, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const service = startProcess('service', [...nodeFlags, 'dist/main.js'], serviceEnv(big.file, ports.service));
  const smallService = startProcess('service (1k rows)', [...serviceNodeOptions, 'dist/main.js'], serviceEnv(small.file, ports.small));
  // P7: the same service with Prometheus metrics on, against its twin with metrics off. Both serve P7
  // only, so they have the same history: the first copy, hot from every other scenario, answered the
  // same request with about half the CPU of a copy started with it and loaded only for P7.
  const metered = startProcess('service with metrics', [...serviceNodeOptions, 'dist/main.js'], { ...serviceEnv(big.file, ports.metered), METRICS_PORT: String(ports.metrics) });
  const twin = startProcess('service, metrics off (P7)', [...serviceNodeOptions, 'dist/main.js'], serviceEnv(big.file, ports.twin));
  const bare = startProcess('bare Fastify', ['bench/peers/bare-fastify.mjs'], { ...serviceEnv(big.file, ports.bare), LOG_LEVEL: 'info' });
  // P1n/P2n: the design card's idioms at their own cost (see peers/nest-ceiling.mjs).
  const ceiling = startProcess('the idiom\'s ceiling', ['bench/peers/nest-ceiling.mjs'], { ...serviceEnv(big.file, ports.ceiling), LOG_LEVEL: 'info' });
  const grantsFile = join(tmp, 'oidc-grants.json');
  const oidc = startProcess('oidc-provider', ['bench/peers/oidc-provider.mjs'], {
    ...process.env,
    PORT: String(ports.oidc),
    GRANTS_FILE: grantsFile,
    ACCOUNTS: String(SETTINGS.users),
  });
  const base = (port) => `http://127.0.0.1:${port}`;
  await Promise.all([
    waitFor(`${base(ports.service)}/health`),
    waitFor(`${base(ports.small)}/health`),
    waitFor(`${base(ports.metered)}/health`),
    waitFor(`${base(ports.twin)}/health`),
    waitFor(`${base(ports.bare)}/health`),
    waitFor(`${base(ports.ceiling)}/health`),
    waitFor(`${base(ports.oidc)}/.well-known/openid-configuration`),
  ]);
  const peerGrants = JSON.parse(readFileSync(grantsFile, 'utf8'));
  log('service and peers are up');

  const serviceAuth = basic(big.client.client_id, big.client.client_secret);
  const oidcAuth = basic(peerGrants.client.client_id, peerGrants.client.client_secret);
  const accessTokens = big.grants.map((g) => g.access_token);
  // P2d: before P4's chain heads are read, since getting them rotates a few grants.
  const signer = dpopSigner();
  const boundTokens = !only || only.has('P2d') || only.has('P2') ? await dpopBoundTokens(base(ports.service), serviceAuth, big.grants, signer, 20) : [];
  const deviceCodes = !only || only.has('PD') ? await pendingDeviceCodes(base(ports.service), deviceClient.client_id, DEVICE_CODES) : [];
  const smallBearer = `Bearer ${small.grants[0].access_token}`;
  const bigBearer = `Bearer ${accessTokens[0]}`;
  const serviceHeads = big.grants.map((g) => g.refresh_token);
  const oidcHeads = peerGrants.grants.map((g) => g.refresh_token);
  // P4's chains, shared with P4r/P4e (their peer): a chain's head moves on whichever scenario refreshes it.
  const plainRefresh = { url: `${base(ports.service)}/oauth/token`, requests: refreshChains(serviceHeads, serviceAuth) };
  const openIdRefresh = (alg) => ({
    url: `${base(ports.service)}/oauth/token`,
    pid: service.pid,
    requests: refreshChains(
      openIdClients[alg].grants.map((g) => g.refresh_token),
      basic(openIdClients[alg].client.client_id, openIdClients[alg].client.client_secret),
    ),
  });

  const industries = (port) => ({ url: `${base(port)}/api/public/v1/industries`, requests: [{ method: 'GET', headers: { 'x-api-key': big.apiKey } }] });
  const me = (port) => ({
    url: `${base(port)}/api/public/v1/me`,
    requests: rotating(accessTokens, (token) => ({ method: 'GET', headers: { authorization: `Bearer ${token}` } })),
  });
  const introspect = (url, auth, tokens) => ({
    url,
    requests: rotating(tokens, (token) => ({
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ token }),
    })),
  });
  const startupsQuery = (port, bearer, query) => ({
    url: `${base(port)}/api/public/v1/startups?${query}`,
    requests: [{ method: 'GET', headers: { authorization: bearer } }],
  });

  // P6a/b: a selective term, as most searches are: "tarım" (folded "tarim") matches 465 of the 100,000
  // demo startups (0.47 %) and 5 of the first 1,000.
  const SEARCH_TERM = 'tarım';
  const SEARCH_QUERY = `q=${encodeURIComponent(SEARCH_TERM)}&limit=20`;

  /** Each scenario: the service, and the peer it is measured against (none for P6b-d). */
  const scenarios = [
    {
      id: 'P1',
      name: 'GET /industries with an API key',
      service: industries(ports.service),
      peer: { name: 'bare Fastify', ...industries(ports.bare) },
      target: 0.8,
    },
    {
      id: 'P2',
      name: 'GET /me with a Bearer token',
      service: me(ports.service),
      peer: { name: 'bare Fastify', ...me(ports.bare) },
      target: 0.6,
    },
    // P1 and P2 again, against the smallest Nest app that does the same route work through the card's
    // idioms (Passport AuthGuards, a global envelope interceptor): what the service adds beyond them.
    {
      id: 'P1n',
      name: 'GET /industries with an API key, against the idiom\'s ceiling',
      service: industries(ports.service),
      peer: { name: 'Nest 12 with the card\'s idioms only', rss: 'ceiling', ...industries(ports.ceiling) },
      target: 0.95,
    },
    {
      id: 'P2n',
      name: 'GET /me with a Bearer token, against the idiom\'s ceiling',
      service: me(ports.service),
      peer: { name: 'Nest 12 with the card\'s idioms only', rss: 'ceiling', ...me(ports.ceiling) },
      target: 0.95,
    },
    {
      // The cost of DPoP (RFC 9449 §7) per request: a fresh proof each time (its ES256 signature checked,
      // its jti remembered), against P2's Bearer calls on the same service.
      id: 'P2d',
      name: 'GET /me with a DPoP-bound token and a fresh ES256 proof per request',
      service: {
        url: `${base(ports.service)}/api/public/v1/me`,
        pid: service.pid,
        requests: rotating(boundTokens, (token) => ({
          method: 'GET',
          headers: { authorization: `DPoP ${token}`, dpop: signer.proof('GET', `${base(ports.service)}/api/public/v1/me`, token) },
        })),
      },
      peer: { name: 'the service, P2 with Bearer', rss: 'service', pid: service.pid, ...me(ports.service) },
      // An ES256 verification and a write (the jti, in SQLite here: the bench has no Redis) per call.
      target: 0.25,
    },
    {
      id: 'P3',
      name: 'POST /oauth/introspect',
      service: introspect(`${base(ports.service)}/oauth/introspect`, serviceAuth, accessTokens),
      peer: {
        name: 'oidc-provider',
        ...introspect(`${base(ports.oidc)}/token/introspection`, oidcAuth, peerGrants.grants.map((g) => g.access_token)),
      },
      target: 1.5,
    },
    {
      id: 'P4',
      name: 'POST /oauth/token refresh_token, rotating',
      service: plainRefresh,
      peer: { name: 'oidc-provider', url: `${base(ports.oidc)}/token`, requests: refreshChains(oidcHeads, oidcAuth) },
      target: 1.0,
    },
    // The cost of an ID token per grant: P4's refresh on grants that hold `openid`, so that every answer
    // carries a new ID token (a user lookup, then a JWS signed with the client's algorithm), against P4's
    // refresh without `openid` on the same service, moments apart.
    ...['RS256', 'ES256'].map((alg) => ({
      id: alg === 'RS256' ? 'P4r' : 'P4e',
      name: `POST /oauth/token refresh_token, rotating, grant holding openid: ID token ${alg}`,
      service: openIdRefresh(alg),
      peer: { name: 'the service, P4 without openid', ...plainRefresh, pid: service.pid, rss: 'service' },
      report: true,
    })),
    {
      // The device flow's poll (RFC 8628 §3.4): what every waiting device sends every few seconds. Each
      // pending code is polled well within its interval here, so most answers are `slow_down` (one
      // conditional UPDATE), the first of each `authorization_pending` (another): both a read and a write.
      id: 'PD',
      name: `POST /oauth/token device_code, pending (${DEVICE_CODES} codes taking turns)`,
      service: {
        url: `${base(ports.service)}/oauth/token`,
        pid: service.pid,
        accepts: isPendingPollAnswer,
        requests: rotating(deviceCodes, (code) => ({
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: deviceClient.client_id, device_code: code }),
        })),
      },
      report: true,
    },
    {
      id: 'P6a',
      name: `GET /startups?q=${SEARCH_TERM}&limit=20 (${big.startups} rows)`,
      service: startupsQuery(ports.service, bigBearer, SEARCH_QUERY),
      peer: { name: 'bare Fastify, LIKE scan', ...startupsQuery(ports.bare, bigBearer, SEARCH_QUERY) },
      target: 10,
      growthTarget: 3,
    },
    {
      id: 'P6b',
      name: `GET /startups?q=${SEARCH_TERM}&limit=20 (${small.startups} rows)`,
      service: startupsQuery(ports.small, smallBearer, SEARCH_QUERY),
      report: true,
    },
    {
      id: 'P6c',
      name: `GET /startups?offset=${big.startups - 1000}&limit=20 (${big.startups} rows)`,
      service: startupsQuery(ports.service, bigBearer, `offset=${big.startups - 1000}&limit=20`),
      report: true,
    },
    {
      id: 'P6d',
      name: `GET /startups?offset=${small.startups - 10}&limit=20 (${small.startups} rows)`,
      service: startupsQuery(ports.small, smallBearer, `offset=${small.startups - 10}&limit=20`),
      report: true,
    },
    {
      id: 'P7',
      name: 'GET /industries with METRICS_PORT set: the cost of metrics',
      service: { ...industries(ports.metered), pid: metered.pid },
      rss: 'metered',
      peer: { name: 'its twin, metrics off', rss: 'twin', pid: twin.pid, ...industries(ports.twin) },
      target: 0.95,
    },
  ].filter((s) => !only || only.has(s.id) || only.has(s.id.slice(0, 2)));

  // A scenario that does not answer 2xx (PD: its expected 400s) before the load would measure errors: stop here instead.
  for (const s of scenarios) {
    for (const target of [s.service, s.peer].filter(Boolean)) {
      const r = await load(target.url, target.requests, 0.5, undefined, target.accepts);
      const wanted = target.accepts ? 'the expected answers' : '2xx';
      if (r.non2xx > 0 || r.total === 0) throw new Error(`${s.id} ${target.name ?? 'service'}: ${r.non2xx} of ${r.total} answers were not ${wanted} before the run`);
    }
  }

  log(`warm-up: ${SETTINGS.warmupSeconds} s per scenario and server`);
  for (const s of scenarios) for (const target of [s.service, s.peer].filter(Boolean)) await load(target.url, target.requests, SETTINGS.warmupSeconds, undefined, target.accepts);

  const runs = Object.fromEntries(scenarios.map((s) => [s.id, { service: [], peer: [] }]));
  for (let round = 1; round <= SETTINGS.rounds; round++) {
    log(`round ${round} of ${SETTINGS.rounds}`);
    for (const s of scenarios) {
      // Alternate who goes first, so neither always runs on the warmer (or hotter) machine.
      const order = round % 2 === 1 ? ['service', 'peer'] : ['peer', 'service'];
      for (const who of order) {
        const target = s[who];
        if (!target) continue;
        runs[s.id][who].push(await load(target.url, target.requests, SETTINGS.seconds, target.pid, target.accepts));
      }
    }
  }

  const rss = { service: peakRssMb(service.pid), bare: peakRssMb(bare.pid), ceiling: peakRssMb(ceiling.pid), oidc: peakRssMb(oidc.pid), small: peakRssMb(smallService.pid), metered: peakRssMb(metered.pid), twin: peakRssMb(twin.pid) };
  const counted = await countedByMetrics(`http://127.0.0.1:${ports.metrics}/metrics`, '/api/public/v1/industries');
  shuttingDown = true;
  // Every process the bench started (startProcess keeps them all), so that a new peer cannot be left running.
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.on('exit', r)))));

  const report = summarize(scenarios, runs, rss);
  const p7 = report.rows.find((r) => r.id === 'P7');
  if (p7) {
    // The CPU each copy spent per request (robust to how busy the machine is), and what the metered copy
    // counted itself against what autocannon received from it over every load.
    const cpu = (who) => median(runs.P7[who].map((r) => r.cpuUsPerRequest));
    p7.cpuUsPerRequest = { metered: cpu('service'), unmetered: cpu('peer') };
    p7.note =
      `CPU per request ${cpu('service').toFixed(0)} µs with metrics, ${cpu('peer').toFixed(0)} µs without; ` +
      `it counted ${counted.toLocaleString('en-US')} requests to the route, autocannon received ${answered.get(industries(ports.metered).url).toLocaleString('en-US')} answers`;
  }
  // P4r/P4e: the CPU the service spent per refresh with an ID token and without (robust to how busy the
  // machine is), and ES256 against RS256.
  const cpuPerRefresh = (id, who) => median(runs[id][who].map((r) => r.cpuUsPerRequest));
  for (const id of ['P4r', 'P4e']) {
    const row = report.rows.find((r) => r.id === id);
    if (!row) continue;
    const withIdToken = cpuPerRefresh(id, 'service');
    const without = cpuPerRefresh(id, 'peer');
    row.cpuUsPerRequest = { withIdToken, without };
    row.note = `CPU per refresh ${withIdToken.toFixed(0)} µs with the ID token, ${without.toFixed(0)} µs without: the ID token costs ${(withIdToken - without).toFixed(0)} µs`;
  }
  // P2d: the CPU the service spent per /me call with a DPoP proof and with Bearer: the proof's cost.
  const p2d = report.rows.find((r) => r.id === 'P2d');
  if (p2d) {
    const withProof = cpuPerRefresh('P2d', 'service');
    const bearer = cpuPerRefresh('P2d', 'peer');
    p2d.cpuUsPerRequest = { dpop: withProof, bearer };
    p2d.note = `CPU per request ${withProof.toFixed(0)} µs with a DPoP proof, ${bearer.toFixed(0)} µs with Bearer: verifying the proof costs ${(withProof - bearer).toFixed(0)} µs`;
  }
  // PD: the CPU the service spent per poll of a pending device code.
  const pd = report.rows.find((r) => r.id === 'PD');
  if (pd) {
    const perPoll = cpuPerRefresh('PD', 'service');
    pd.cpuUsPerRequest = { poll: perPoll };
    pd.note = `CPU per poll ${perPoll.toFixed(0)} µs; every answer was authorization_pending or slow_down (400) unless non-2xx says otherwise`;
  }
  const [rs, es] = ['P4r', 'P4e'].map((id) => report.rows.find((r) => r.id === id));
  if (rs && es) {
    es.note += `; ES256 ÷ RS256 throughput ${median(runs.P4e.service.map((r, i) => r.rps / runs.P4r.service[i].rps)).toFixed(2)}×`;
  }
  const elapsed = (Date.now() - started) / 1000;
  const output = {
    date: new Date().toISOString(),
    elapsedSeconds: Math.round(elapsed),
    machine: { node: process.version, cpus: (await import('node:os')).cpus().length },
    settings: { ...SETTINGS, serviceNodeOptions },
    rows: report.rows,
    runs,
  };
  const markdown = toMarkdown(report.rows, output);
  if (!variant) {
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(join(root, 'bench/results/latest.json'), `${JSON.stringify(output, null, 2)}\n`);
    writeFileSync(join(root, 'bench/results/latest.md'), markdown);
  }
  process.stdout.write(`\n${markdown}\n`);
  log(`done in ${elapsed.toFixed(0)} s${variant ? ' (a partial or variant run: results not written)' : '; wrote bench/results/latest.json and latest.md'}`);
}

/** The sum of `http_requests_total` for one route template, from a metrics listener. */
async function countedByMetrics(url, route) {
  const text = await (await fetch(url)).text();
  let total = 0;
  for (const line of text.split('\n')) if (line.startsWith(`http_requests_total{route="${route}"`)) total += Number(line.split(' ').pop());
  return total;
}

// -------------------------------------------------------------------------------------------- report

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function summarize(scenarios, runs, rss) {
  const rows = [];
  const stats = (list) => ({
    rps: median(list.map((r) => r.rps)),
    p50: median(list.map((r) => r.p50)),
    p99: median(list.map((r) => r.p99)),
    non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
  });
  for (const s of scenarios) {
    const service = stats(runs[s.id].service);
    const row = { id: s.id, scenario: s.name, service, rssMb: s.rss ? rss[s.rss] : s.id.startsWith('P6') && s.name.includes(`(${SETTINGS.smallStartups} `) ? rss.small : rss.service };
    if (s.peer) {
      const peer = stats(runs[s.id].peer);
      // The median of the per-round ratios: each round compares two runs made moments apart.
      const ratio = median(runs[s.id].service.map((r, i) => r.rps / runs[s.id].peer[i].rps));
      Object.assign(row, {
        peer: { name: s.peer.name, ...peer, rssMb: s.peer.rss ? rss[s.peer.rss] : s.peer.name === 'oidc-provider' ? rss.oidc : rss.bare },
        ratio,
        // A peer without a target (P4r/P4e) is reported, not judged.
        target: s.target === undefined ? 'report' : `≥ ${s.target.toFixed(2)}×`,
        pass: s.target === undefined ? undefined : ratio >= s.target,
      });
    }
    rows.push(row);
  }
  if (!only || only.has('P5')) {
    const ratio = rss.service / rss.bare;
    rows.push({
      id: 'P5',
      scenario: 'peak RSS of the service over the run',
      service: { rssMb: rss.service },
      peer: { name: 'bare Fastify', rssMb: rss.bare },
      rssMb: rss.service,
      ratio,
      target: '≤ 1.50×',
      pass: ratio <= 1.5,
    });
  }
  const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
  for (const [big, small] of [
    ['P6a', 'P6b'],
    ['P6c', 'P6d'],
  ]) {
    if (byId[big] && byId[small]) {
      const row = byId[big];
      // The median of the per-round ratios, as for the peers: each round measures both moments apart.
      row.growth = median(runs[small].service.map((r, i) => r.rps / runs[big].service[i].rps));
      row.note = `${row.growth.toFixed(2)}× the time per request of ${SETTINGS.smallStartups} rows`;
      const growthTarget = scenarios.find((s) => s.id === big).growthTarget;
      if (growthTarget === undefined) {
        row.target = 'report';
      } else {
        // P6a is judged twice: against its peer and by how its cost grows with the table.
        row.target = `${row.target ?? ''}; growth ≤ ${growthTarget.toFixed(2)}×`.replace(/^; /, '');
        row.growthPass = row.growth <= growthTarget;
        row.pass = (row.pass ?? true) && row.growthPass;
      }
    }
  }
  return { rows };
}

function toMarkdown(rows, output) {
  const f0 = (n) => (n === undefined ? '' : Math.round(n).toLocaleString('en-US'));
  const f1 = (n) => (n === undefined ? '' : n.toFixed(1));
  const lines = [
    `Run of ${output.date.slice(0, 16).replace('T', ' ')} UTC · Node ${output.machine.node} · ${output.machine.cpus} CPUs · ${output.settings.connections} connections · ` +
      `median of ${output.settings.rounds} rounds × ${output.settings.seconds} s after ${output.settings.warmupSeconds} s warm-up · ${output.elapsedSeconds} s in all` +
      ` · service run as \`${['node', ...serviceNodeOptions, 'dist/main.js'].join(' ')}\``,
    '',
    '| | scenario | service req/s | p50 ms | p99 ms | non-2xx | peer | peer req/s | p50 ms | p99 ms | non-2xx | RSS MB (service / peer) | ratio | target | result |',
    '|---|---|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|---|---|',
  ];
  for (const r of rows) {
    const p = r.peer ?? {};
    const result = (r.pass === undefined ? '' : r.pass ? '**pass**' : '**FAIL**') + (r.note ? `${r.pass === undefined ? '' : ' · '}${r.note}` : '');
    lines.push(
      `| ${r.id} | ${r.scenario} | ${f0(r.service.rps)} | ${f1(r.service.p50)} | ${f1(r.service.p99)} | ${r.service.non2xx ?? ''} | ` +
        `${p.name ?? '—'} | ${f0(p.rps)} | ${f1(p.p50)} | ${f1(p.p99)} | ${p.non2xx ?? ''} | ${f0(r.rssMb)}${p.rssMb ? ` / ${f0(p.rssMb)}` : ''} | ` +
        `${r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`} | ${r.target ?? ''} | ${result} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

main().catch((error) => {
  log(`failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});

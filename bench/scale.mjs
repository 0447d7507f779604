#!/usr/bin/env node
// `npm run bench:scale`: one and then two instances on one PostgreSQL and one Redis. See bench/README.md.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import pg from 'pg';

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
  seconds: num('seconds', 8),
  warmupSeconds: num('warmup', 2),
  connections: num('connections', 50),
  users: num('users', 1000),
  poolSize: num('pool-size', 10),
};
// An existing database the bench may create a database of its own from (dropped at the end).
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

const started = Date.now();
const suffix = randomBytes(4).toString('hex');
const database = `sp_scale_${suffix}`;
const redisPrefix = `sp_scale_${suffix}:`;
const databaseUrl = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
})();
const tmp = mkdtempSync(join(tmpdir(), 'sp-scale-'));
const children = [];
let shuttingDown = false;
const log = (line) => process.stderr.write(`[scale ${((Date.now() - started) / 1000).toFixed(0).padStart(3)}s] ${line}\n`);

// ---------------------------------------------------------------------------------------- lifecycle

async function withAdmin(work) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function cleanUp() {
  shuttingDown = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.on('exit', r)))));
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)).catch((e) => log(`could not drop ${database}: ${e.message}`));
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  redis.disconnect();
  rmSync(tmp, { recursive: true, force: true });
}

process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});
process.on('SIGINT', () => cleanUp().finally(() => process.exit(130)));

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

const LIMIT = '1000000'; // the bench measures throughput, not 429s (the limiter still counts in Redis)
const sessionSecret = randomBytes(32).toString('base64url');
// The same on both instances and the CLI, as in production: they share the signing keys.
const keyEncryptionSecret = randomBytes(32).toString('base64url');
function serviceEnv(port) {
  return {
    ...process.env,
    NODE_ENV: 'production',
    SESSION_SECRET: sessionSecret,
    KEY_ENCRYPTION_SECRET: keyEncryptionSecret,
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: '',
    DATABASE_POOL_SIZE: String(SETTINGS.poolSize),
    REDIS_URL,
    REDIS_KEY_PREFIX: redisPrefix,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://127.0.0.1:3000',
    LOG_LEVEL: 'info',
    PURGE_INTERVAL: '0',
    RATE_LIMIT_ANONYMOUS: LIMIT,
    RATE_LIMIT_STANDARD: LIMIT,
    RATE_LIMIT_PARTNER: LIMIT,
    RATE_LIMIT_CLIENT: LIMIT,
  };
}

function cli(...command) {
  const out = execFileSync(process.execPath, [join(root, 'dist/cli.js'), ...command, '--json'], {
    cwd: root,
    env: { ...serviceEnv(0), LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.toString());
}

/** One instance, as `npm start` runs it, with the statement and command counter preloaded. */
function startInstance(name, port, metricsPort) {
  const countFile = join(tmp, `${name}.json`);
  const startScript = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  const nodeOptions = (/\bnode((?: --\S+)*) dist\/main\.js/.exec(startScript)?.[1] ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeOptions, '--require', join(root, 'bench/scale/count-io.cjs'), 'dist/main.js'], {
    cwd: root,
    // Metrics on, as in production: each instance's own count of the requests it answered is the
    // denominator of every per-request figure (autocannon's misses those still in flight at its end).
    env: { ...serviceEnv(port), METRICS_PORT: String(metricsPort), COUNT_FILE: countFile },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  child.on('exit', (code, signal) => {
    if (!shuttingDown) {
      log(`${name} exited (${code ?? signal}); its stderr:\n${stderr}`);
      cleanUp().finally(() => process.exit(1));
    }
  });
  children.push(child);
  return { name, child, url: `http://127.0.0.1:${port}`, metrics: `http://127.0.0.1:${metricsPort}/metrics`, counts: () => JSON.parse(readFileSync(countFile, 'utf8')) };
}

async function waitFor(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ------------------------------------------------------------------------------------- measurements

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0; // the process has gone
  }
}

/** The server processes of this bench's database only (its backends), so other users' load is not counted. */
async function ourBackends(admin) {
  const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
  return rows.map((r) => r.pid);
}

async function redisStats(redis) {
  const [commandstats, cpu] = await Promise.all([redis.info('commandstats'), redis.info('cpu')]);
  let calls = 0;
  for (const match of commandstats.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)) calls += Number(match[1]);
  const used = (name) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(cpu)?.[1] ?? 0);
  return { calls, cpu: used('used_cpu_user') + used('used_cpu_sys') };
}

/** Requests the instance answered on `route`, from its own `http_requests_total`. */
async function served(instance, route) {
  const text = await (await fetch(instance.metrics)).text();
  let total = 0;
  for (const line of text.split('\n')) if (line.startsWith(`http_requests_total{route="${route}"`)) total += Number(line.split(' ').pop());
  return total;
}

/** A snapshot of every counter a measurement is the difference of. */
async function snapshot(instances, admin, redis, route) {
  const backends = await ourBackends(admin);
  const counts = instances.map((i) => i.counts());
  const requests = (await Promise.all(instances.map((i) => served(i, route)))).reduce((a, b) => a + b, 0);
  return {
    requests,
    at: process.hrtime.bigint(),
    appCpu: instances.reduce((sum, i) => sum + cpuSeconds(i.child.pid), 0),
    pgCpu: new Map(backends.map((pid) => [pid, cpuSeconds(pid)])),
    backends: backends.length,
    pgStatements: counts.reduce((sum, c) => sum + c.pg, 0),
    redisCommands: counts.reduce((sum, c) => sum + c.redis, 0),
    redis: await redisStats(redis),
    loadCpu: process.cpuUsage(),
  };
}

const form = (fields) => new URLSearchParams(fields).toString();
const basic = (id, secret) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

function rotating(values, build) {
  let i = 0;
  return [{ setupRequest: (request) => ({ ...request, ...build(values[i++ % values.length]) }) }];
}

/** Rotating refresh chains, each followed by one connection at a time (as in bench/run.mjs). */
function refreshChains(heads, auth) {
  const free = heads.map((_, i) => i);
  return [
    {
      method: 'POST',
      setupRequest: (request, context) => {
        context.chain = free.shift();
        if (context.chain === undefined) throw new Error('every refresh chain is in use or lost: seed more users (--users)');
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
        }
      },
    },
  ];
}

async function settle(instances) {
  for (const i of instances) for (let n = 0; n < 3; n++) await fetch(`${i.url}/health`).then((r) => r.arrayBuffer(), () => undefined);
  // The counters are written every 100 ms and PostgreSQL's backends may still be finishing.
  await new Promise((resolve) => setTimeout(resolve, 400));
}

/** Load spread over `instances` (autocannon gives each URL an equal share of the connections). */
async function measure(instances, scenario, seconds, ctx) {
  const before = await snapshot(ctx.all, ctx.admin, ctx.redis, scenario.path);
  const result = await autocannon({
    url: instances.map((i) => i.url + scenario.path),
    connections: SETTINGS.connections,
    duration: seconds,
    requests: scenario.requests,
    timeout: 20,
  });
  await settle(instances);
  const after = await snapshot(ctx.all, ctx.admin, ctx.redis, scenario.path);
  const wall = Number(after.at - before.at) / 1e9;
  const answered = after.requests - before.requests;
  const loadCpu = process.cpuUsage(before.loadCpu);
  const per = (value) => (answered > 0 ? value / answered : NaN);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
    answered,
    received: result.requests.total,
    pgStatementsPerRequest: per(after.pgStatements - before.pgStatements),
    redisCommandsPerRequest: per(after.redisCommands - before.redisCommands),
    redisCallsPerRequestServerWide: per(after.redis.calls - before.redis.calls),
    appCpuMsPerRequest: per((after.appCpu - before.appCpu) * 1000),
    // Per backend: one opened during the measurement counts whole; one closed during it is missed.
    pgCpuMsPerRequest: per([...after.pgCpu].reduce((sum, [pid, cpu]) => sum + cpu - (before.pgCpu.get(pid) ?? 0), 0) * 1000),
    redisCpuMsPerRequestServerWide: per((after.redis.cpu - before.redis.cpu) * 1000),
    loadGeneratorCpuMsPerRequest: per((loadCpu.user + loadCpu.system) / 1000),
    pgBackends: after.backends,
    wallSeconds: wall,
  };
}

// ------------------------------------------------------------------------------------------------ run

async function main() {
  const preload = await withAdmin(async (admin) => (await admin.query('SHOW shared_preload_libraries')).rows[0].shared_preload_libraries);
  const statementSource = /pg_stat_statements/.test(preload)
    ? 'counted in each instance (pg_stat_statements is loaded too)'
    : 'counted in each instance: pg_stat_statements is not in shared_preload_libraries';
  log(`database ${database} and Redis prefix ${redisPrefix} (both removed at the end)`);
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${database}`));

  log('building dist/ (npm run build)');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  log(`seeding through the CLI: 1,000 startups, ${SETTINGS.users} users with tokens`);
  const client = cli('clients:create', '--name', 'Scale bench', '--redirect-uri', 'http://127.0.0.1:8080/callback', '--scopes', 'profile read:startups');
  const seeded = cli('seed', '--startups', '1000', '--users', String(SETTINGS.users), '--tokens-for', client.client_id);
  const grants = seeded.grants;

  const all = [startInstance('a', await freePort(), await freePort()), startInstance('b', await freePort(), await freePort())];
  await Promise.all(all.map((i) => waitFor(`${i.url}/health/ready`)));
  log('two instances are up; the first phase of each round loads only the first');

  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const redis = new Redis(REDIS_URL);
  const ctx = { all, admin, redis };

  const auth = basic(client.client_id, client.client_secret);
  const accessTokens = grants.map((g) => g.access_token);
  const heads = grants.map((g) => g.refresh_token);
  const scenarios = [
    { id: 'me', name: 'GET /api/public/v1/me (Bearer)', path: '/api/public/v1/me', requests: rotating(accessTokens, (t) => ({ method: 'GET', headers: { authorization: `Bearer ${t}` } })) },
    { id: 'refresh', name: 'POST /oauth/token refresh_token, rotating', path: '/oauth/token', requests: refreshChains(heads, auth) },
  ];

  for (const s of scenarios) {
    const check = await measure(all, s, 0.5, ctx);
    if (check.non2xx > 0 || check.received === 0) throw new Error(`${s.id}: ${check.non2xx} of ${check.answered} answers were not 2xx`);
  }
  log(`warm-up: ${SETTINGS.warmupSeconds} s per scenario on both instances`);
  for (const s of scenarios) await measure(all, s, SETTINGS.warmupSeconds, ctx);

  const runs = Object.fromEntries(scenarios.map((s) => [s.id, { one: [], two: [] }]));
  for (let round = 1; round <= SETTINGS.rounds; round++) {
    log(`round ${round} of ${SETTINGS.rounds}`);
    for (const s of scenarios) {
      // Alternate which phase goes first, so neither always runs on the warmer machine.
      const phases = round % 2 === 1 ? ['one', 'two'] : ['two', 'one'];
      for (const phase of phases) runs[s.id][phase].push(await measure(phase === 'one' ? all.slice(0, 1) : all, s, SETTINGS.seconds, ctx));
    }
  }
  await admin.end();
  redis.disconnect();

  const report = summarize(scenarios, runs);
  const output = {
    date: new Date().toISOString(),
    elapsedSeconds: Math.round((Date.now() - started) / 1000),
    machine: { node: process.version, cpus: cpus().length, postgres: await withAdmin(async (a) => (await a.query('SHOW server_version')).rows[0].server_version) },
    settings: SETTINGS,
    statementSource,
    rows: report,
    runs,
  };
  const markdown = toMarkdown(report, output);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/scale.json'), `${JSON.stringify(output, null, 2)}\n`);
  writeFileSync(join(root, 'bench/results/scale.md'), markdown);
  process.stdout.write(`\n${markdown}\n`);
  await cleanUp();
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; wrote bench/results/scale.json and scale.md; ${database} and ${redisPrefix}* removed`);
}

// -------------------------------------------------------------------------------------------- report

const median = (values) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function summarize(scenarios, runs) {
  const rows = [];
  for (const s of scenarios) {
    const stats = (list) => {
      const out = { non2xx: list.reduce((sum, r) => sum + r.non2xx, 0) };
      for (const key of Object.keys(list[0])) if (key !== 'non2xx') out[key] = median(list.map((r) => r[key]));
      return out;
    };
    const one = stats(runs[s.id].one);
    const two = stats(runs[s.id].two);
    // Scaling efficiency: the throughput of two instances over twice that of one, per round.
    const efficiency = median(runs[s.id].two.map((r, i) => r.rps / (2 * runs[s.id].one[i].rps)));
    rows.push({ id: s.id, scenario: s.name, instances: 1, ...one }, { id: s.id, scenario: s.name, instances: 2, ...two, efficiency });
  }
  return rows;
}

function toMarkdown(rows, output) {
  const f0 = (n) => (n === undefined || Number.isNaN(n) ? '' : Math.round(n).toLocaleString('en-US'));
  const f1 = (n) => (n === undefined || Number.isNaN(n) ? '' : n.toFixed(1));
  const f2 = (n) => (n === undefined || Number.isNaN(n) ? '' : n.toFixed(2));
  const f3 = (n) => (n === undefined || Number.isNaN(n) ? '' : n.toFixed(3));
  const lines = [
    `Run of ${output.date.slice(0, 16).replace('T', ' ')} UTC · Node ${output.machine.node} · ${output.machine.cpus} CPUs · PostgreSQL ${output.machine.postgres} · ` +
      `${output.settings.connections} connections spread over the instances · pool ${output.settings.poolSize} per instance · ` +
      `median of ${output.settings.rounds} rounds × ${output.settings.seconds} s · ${output.elapsedSeconds} s in all · statements ${output.statementSource}`,
    '',
    '| scenario | instances | req/s | p50 ms | p99 ms | non-2xx | scaling efficiency | PostgreSQL statements / req | Redis commands / req | Redis calls / req (server-wide) | CPU ms / req: instances | PostgreSQL backends | Redis (server-wide) | load generator |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.scenario} | ${r.instances} | ${f0(r.rps)} | ${f1(r.p50)} | ${f1(r.p99)} | ${r.non2xx} | ${r.efficiency === undefined ? '' : `${(r.efficiency * 100).toFixed(0)} %`} | ` +
        `${f2(r.pgStatementsPerRequest)} | ${f2(r.redisCommandsPerRequest)} | ${f2(r.redisCallsPerRequestServerWide)} | ` +
        `${f3(r.appCpuMsPerRequest)} | ${f3(r.pgCpuMsPerRequest)} | ${f3(r.redisCpuMsPerRequestServerWide)} | ${f3(r.loadGeneratorCpuMsPerRequest)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

main().catch(async (error) => {
  log(`failed: ${error instanceof Error ? error.stack : String(error)}`);
  await cleanUp().catch(() => undefined);
  process.exit(1);
});

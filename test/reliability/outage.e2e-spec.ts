import { BrowserSession } from '../helpers/oauth';
import { http, HttpResponse } from '../helpers/http';
import { introspect, me, provision, Provisioned, refresh, revoke, tokens } from '../helpers/flows';
import { ServiceProcess, startService } from '../helpers/processes';
import { TcpProxy, viaProxy } from '../helpers/tcp-proxy';
import { engine, freePort, isolatedStorage } from '../helpers/test-app';
import { betterSqlite3 } from '../../src/database/sqlite-driver';

const Database = betterSqlite3();

/**
 * The database goes away mid-run (docs/using-the-api.md, Envelopes, `SERVICE_UNAVAILABLE`; docs/configuration-and-deployment.md, Health checks): every request that
 * needs it answers 503 in its endpoint's own shape — the API envelope, an RFC 6749 §5.2
 * `temporarily_unavailable` body on the client-authenticated OAuth endpoints, an HTML page on the
 * browser-facing authorization endpoint — within a bounded time; liveness stays 200, readiness is 503;
 * and the service recovers by itself once the database is back.
 *
 * PostgreSQL is shared by every run on the machine, so it is never stopped: the service reaches it
 * through a TCP proxy (test/helpers/tcp-proxy.ts) that the suite cuts and restores.
 *
 * SQLite is a file inside the service's own process: there is no connection to lose. Its outage is
 * another process holding the write lock past the busy timeout (5 s): writes then fail with
 * SQLITE_BUSY and answer 503, reads go on (WAL), and the writes succeed again once the lock is freed.
 */
// A request waits at most for a connection (5 s) or for the answers of its queries (10 s each, see
// src/database/data-source-options.ts): a transaction that times out also waits for its ROLLBACK.
const BOUND_MS = 25_000;

async function timed(work: () => Promise<HttpResponse>): Promise<HttpResponse & { ms: number }> {
  const started = Date.now();
  const res = await work();
  return { ...res, ms: Date.now() - started };
}

function expectEnvelope503(res: HttpResponse) {
  expect([res.status, res.body?.error?.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
  expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
  expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
}

function expectOAuth503(res: HttpResponse) {
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
  expect(res.headers.get('cache-control')).toBe('no-store');
}

async function waitUntil(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const onPostgres = engine() === 'postgres' ? describe : describe.skip;
const onSqlite = engine() === 'sqlite' ? describe : describe.skip;

onPostgres('PostgreSQL outage, through a TCP proxy the suite cuts', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let proxy: TcpProxy;
  let service: ServiceProcess;
  let p: Provisioned;
  let issued: { access_token: string; refresh_token: string };

  beforeAll(async () => {
    storage = await isolatedStorage();
    const proxyPort = await freePort();
    const routed = viaProxy(storage.env.DATABASE_URL, proxyPort);
    proxy = new TcpProxy(routed.target);
    await proxy.start(proxyPort);
    p = await provision(storage.env);
    service = await startService(
      { ...storage.env, DATABASE_URL: routed.url, SEED_DEMO_DATA: 'false', LOG_LEVEL: 'warn', SESSION_SECRET: 's'.repeat(40) },
      await freePort(),
    );
    issued = await tokens(service.url, p);
  }, 300_000);
  afterAll(async () => {
    service?.child.kill('SIGKILL');
    await service?.exited;
    await proxy?.close();
    await storage?.drop();
  });

  async function expectUnavailable() {
    const base = service.url;
    const checks: Array<[string, () => Promise<HttpResponse>, (res: HttpResponse) => void]> = [
      ['liveness', () => http(base, '/health'), (res) => expect(res.status).toBe(200)],
      ['readiness', () => http(base, '/health/ready'), (res) => expect(res.status).toBe(503)],
      [
        'public list',
        () => http(base, '/api/public/v1/industries'),
        // The industry list is kept in memory once read: served from there, or 503 before it was ever read.
        (res) => (res.status === 200 ? expect(res.body.data.length).toBeGreaterThan(0) : expectEnvelope503(res)),
      ],
      ['bearer call', () => me(base, issued.access_token), expectEnvelope503],
      ['token', () => refresh(base, p, issued.refresh_token), expectOAuth503],
      ['introspect', () => introspect(base, p, issued.access_token), expectOAuth503],
      ['revoke', () => revoke(base, p, issued.access_token), expectOAuth503],
      [
        'authorize',
        () => http(base, `/oauth/authorize?response_type=code&client_id=${p.client.clientId}&redirect_uri=${encodeURIComponent(p.client.redirectUri)}`),
        (res) => {
          expect(res.status).toBe(503);
          expect(res.headers.get('content-type')).toMatch(/^text\/html/);
          expect(res.headers.get('x-frame-options')).toBe('DENY');
        },
      ],
    ];
    // All at once, as traffic would arrive: none may wait on another's stuck connection for ever.
    const results = await Promise.all(checks.map(([, request]) => timed(() => request())));
    results.forEach((res, i) => {
      const [name, , expectation] = checks[i];
      expect([name, res.ms < BOUND_MS]).toEqual([name, true]);
      expect([name, res.text]).not.toEqual([name, expect.stringMatching(/\n\s+at |node_modules|ECONNREFUSED|pg-pool|QueryFailed/)]);
      expectation(res);
    });
  }

  async function expectRecovered() {
    await waitUntil(async () => (await http(service.url, '/health/ready')).status === 200, 30_000);
    expect((await http(service.url, '/api/public/v1/industries')).status).toBe(200);
    // What a client received before the outage still works, and new grants are issued.
    expect((await me(service.url, issued.access_token)).status).toBe(200);
    const rotated = await refresh(service.url, p, issued.refresh_token);
    expect(rotated.status).toBe(200);
    issued = rotated.body;
    expect((await me(service.url, (await tokens(service.url, p)).access_token)).status).toBe(200);
  }

  it('answers 503 in each endpoint’s shape while the database refuses connections, then recovers by itself', async () => {
    await proxy.cut();
    await expectUnavailable();
    await expectUnavailable();
    await proxy.restore();
    await expectRecovered();
  }, 120_000);

  it('answers 503 within a bounded time while the database stops answering (a partition), then recovers by itself', async () => {
    // Pooled connections are open and idle when the network stops answering: a query sent on one of
    // them gets no reply and no error, so only a timeout can end it.
    await Promise.all(Array.from({ length: 5 }, () => me(service.url, issued.access_token)));
    proxy.blackhole();
    await expectUnavailable();
    await proxy.restore();
    await expectRecovered();
  }, 150_000);

  it('never left the process: liveness held throughout and the log has no stack trace', async () => {
    expect(service.child.exitCode).toBeNull();
    expect(service.output()).not.toMatch(/\n\s+at .+\(/);
  });
});

onSqlite('SQLite outage: another process holds the write lock past the busy timeout', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let service: ServiceProcess;
  let p: Provisioned;
  let issued: { access_token: string; refresh_token: string };

  beforeAll(async () => {
    storage = await isolatedStorage();
    p = await provision(storage.env);
    service = await startService({ ...storage.env, SEED_DEMO_DATA: 'false', LOG_LEVEL: 'warn', SESSION_SECRET: 's'.repeat(40) }, await freePort());
    issued = await tokens(service.url, p);
  }, 300_000);
  afterAll(async () => {
    service?.child.kill('SIGKILL');
    await service?.exited;
    await storage?.drop();
  });

  it('answers writes 503 while the lock is held, serves reads, and recovers once it is released', async () => {
    const holder = new Database(storage.env.SQLITE_PATH);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const token = await timed(() => refresh(service.url, p, issued.refresh_token));
      expectOAuth503(token);
      expect(token.ms).toBeLessThan(BOUND_MS);
      // Reads do not need the write lock (WAL): the issued token still authenticates.
      expect((await me(service.url, issued.access_token)).status).toBe(200);
      expect((await http(service.url, '/health')).status).toBe(200);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const rotated = await refresh(service.url, p, issued.refresh_token);
    expect(rotated.status).toBe(200);
    expect((await me(service.url, rotated.body.access_token)).status).toBe(200);
    expect((await me(service.url, (await tokens(service.url, p, new BrowserSession(service.url))).access_token)).status).toBe(200);
  }, 300_000);
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client as PgClient } from 'pg';
import Redis from 'ioredis';
import { createApp } from '../../src/app.factory';
import { ownPassportStrategies } from './passport';

export interface TestApp {
  app: NestFastifyApplication;
  /** e.g. `http://127.0.0.1:41234`, also the issuer (`PUBLIC_URL`). */
  url: string;
  /** The environment the app was built with (database and Redis settings included). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export type Engine = 'sqlite' | 'postgres';

/** Which database this jest project runs the e2e suites on. */
export function engine(): Engine {
  return process.env.E2E_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * An isolated database for one suite: a temp SQLite file, or a fresh schema in the PostgreSQL of
 * TEST_DATABASE_URL (dropped again by `drop`). With TEST_REDIS_URL, a key prefix of its own as well.
 */
export async function isolatedStorage(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const suffix = randomBytes(6).toString('hex');
  const env: Record<string, string> = {};
  const drops: Array<() => Promise<void>> = [];
  if (engine() === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL suites');
    const schema = `test_${suffix}`;
    await withPg(url, (pg) => pg.query(`CREATE SCHEMA ${schema}`));
    Object.assign(env, { DATABASE_URL: url, DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: '5' });
    drops.push(async () => {
      await withPg(url, (pg) => pg.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    });
    if (process.env.TEST_REDIS_URL) {
      const prefix = `test_${suffix}:`;
      Object.assign(env, { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix });
      drops.push(() => deleteRedisKeys(process.env.TEST_REDIS_URL!, prefix));
    }
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'sp-e2e-'));
    env.SQLITE_PATH = join(dir, 'test.sqlite');
    drops.push(async () => rmSync(dir, { recursive: true, force: true }));
  }
  return {
    env,
    drop: async () => {
      for (const drop of drops) await drop();
    },
  };
}

async function withPg<T>(url: string, work: (pg: PgClient) => Promise<T>): Promise<T> {
  const pg = new PgClient({ connectionString: url });
  await pg.connect();
  try {
    return await work(pg);
  } finally {
    await pg.end();
  }
}

async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

const VARIABLES_SET_BY_TESTS = ['DATABASE_URL', 'DATABASE_SCHEMA', 'SQLITE_PATH', 'REDIS_URL', 'REDIS_KEY_PREFIX'];

/**
 * Boots the real application (AppModule, the production pipeline) on its own port and database.
 * `overrides` are extra environment variables, e.g. `{ RATE_LIMIT_ANONYMOUS: '3' }`.
 */
export async function startTestApp(overrides: Record<string, string> = {}, options: { imports?: Type[]; publicHost?: 'localhost' } = {}): Promise<TestApp> {
  const storage = await isolatedStorage();
  // The port is free when freePort closes it, but another run of the suites (or any program) may take
  // it before the app listens: then the app is built again on another port (the issuer names it).
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    // A passkey's relying party ID must be a domain, never an IP address: those suites browse `localhost`.
    const url = `http://${options.publicHost ?? '127.0.0.1'}:${port}`;
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: url,
      PORT: String(port),
      SEED_DEMO_DATA: 'false',
      ...storage.env,
      ...overrides,
    };
    const previous = { ...process.env };
    for (const name of VARIABLES_SET_BY_TESTS) delete process.env[name];
    Object.assign(process.env, env);
    let app: NestFastifyApplication | undefined;
    try {
      app = await createApp(options);
      await app.listen({ port, host: '127.0.0.1' });
    } catch (error) {
      await app?.close().catch(() => undefined);
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
      await storage.drop();
      throw error;
    } finally {
      process.env = previous;
    }
    return started(app, url, env, storage);
  }
}

function started(app: NestFastifyApplication, url: string, env: Record<string, string>, storage: { drop(): Promise<void> }): TestApp {
  // Several applications live in one test process: each verifies its requests with its own strategies.
  const forget = ownPassportStrategies(app, app.getHttpAdapter().getInstance());
  return {
    app,
    url,
    env,
    close: async () => {
      forget();
      await app.close();
      await storage.drop();
    },
  };
}

// The ceiling: the same work as the service, written by hand on bare Fastify and better-sqlite3, on the
// same database file. Per request it does what the service must do, and nothing of the framework around
// it: API keys and access tokens are looked up by their SHA-256 through prepared statements, requests are
// counted in an in-memory fixed window and carry the RateLimit headers, answers are the contract's
// envelopes, and one access-log line is written per request (pino, to the same sink as the service's).
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import pino from 'pino';
// The service's own choice of better-sqlite3 build for the running Node (the bench builds dist/ first).
import { betterSqlite3 } from '../../dist/database/sqlite-driver.js';

const Database = betterSqlite3();

const file = process.env.SQLITE_PATH;
const port = Number(process.env.PORT ?? 0);
const db = new Database(file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');

const findKey = db.prepare('SELECT id, tier, revoked_at FROM api_keys WHERE key_hash = ?');
const listIndustries = db.prepare('SELECT id, name FROM industries ORDER BY sort_name, id');
const findToken = db.prepare(
  'SELECT t.user_id, t.client_id, t.scope FROM oauth_access_tokens t JOIN oauth_clients c ON c.id = t.client_id ' +
    'WHERE t.token_hash = ? AND t.revoked_at IS NULL AND t.expires_at > ?',
);
const findUser = db.prepare('SELECT id, name, email FROM users WHERE id = ?');
// P6's peer: the naive search, `LIKE '%term%'` over the folded name of every row, then a sort of the
// matches; the page and its exact count, as the contract asks.
const searchWhere = "WHERE s.sort_name LIKE ? ESCAPE '\\'";
const searchPage = db.prepare(
  'SELECT s.id, s.name, s.slug, s.description, s.website, s.founded_year, s.city, s.industry_id, i.name AS industry_name ' +
    `FROM startups s JOIN industries i ON i.id = s.industry_id ${searchWhere} ORDER BY s.sort_name, s.id LIMIT ? OFFSET ?`,
);
const searchCount = db.prepare(`SELECT COUNT(*) AS total FROM startups s ${searchWhere}`);
const fold = (value) => value.normalize('NFD').replace(/\p{M}/gu, '').replace(/ı/g, 'i').toLowerCase().normalize('NFC');

const sha256 = (value) => createHash('sha256').update(value).digest('hex');
const log = pino({ level: 'info' });

const windows = new Map();
function charge(reply, key, limit) {
  const now = Date.now();
  let w = windows.get(key);
  if (!w || w.endsAt <= now) windows.set(key, (w = { count: 0, endsAt: now + 60_000 }));
  w.count += 1;
  reply.header('ratelimit-limit', String(limit));
  reply.header('ratelimit-remaining', String(Math.max(0, limit - w.count)));
  reply.header('ratelimit-reset', String(Math.max(1, Math.ceil((w.endsAt - now) / 1000))));
  return w.count <= limit;
}

const app = Fastify({ logger: false });
app.addHook('onResponse', async (request, reply) => {
  log.info({ requestId: request.id, method: request.method, url: request.url, status: reply.statusCode, durationMs: reply.elapsedTime }, 'request completed');
});

function fail(reply, status, code) {
  return reply.code(status).send({ error: { code, message: code, requestId: String(reply.request.id) } });
}

app.get('/api/public/v1/industries', async (request, reply) => {
  const header = request.headers['x-api-key'];
  let limit = 60;
  let counter = `ip:${request.ip}`;
  if (header !== undefined) {
    const key = typeof header === 'string' ? findKey.get(sha256(header)) : undefined;
    if (!key || key.revoked_at !== null) {
      charge(reply, counter, limit);
      return fail(reply, 401, 'INVALID_API_KEY');
    }
    limit = key.tier === 'partner' ? Number(process.env.RATE_LIMIT_PARTNER ?? 6000) : Number(process.env.RATE_LIMIT_STANDARD ?? 600);
    counter = `key:${key.id}`;
  }
  if (!charge(reply, counter, limit)) return fail(reply, 429, 'RATE_LIMITED');
  reply.header('content-language', 'tr');
  return { data: listIndustries.all() };
});

app.get('/api/public/v1/me', async (request, reply) => {
  const match = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '');
  const grant = match ? findToken.get(sha256(match[1]), Date.now()) : undefined;
  if (!grant) {
    charge(reply, `ip:${request.ip}`, 60);
    reply.header('www-authenticate', 'Bearer realm="api", error="invalid_token"');
    return fail(reply, 401, 'UNAUTHORIZED');
  }
  if (!charge(reply, `client:${grant.client_id}`, Number(process.env.RATE_LIMIT_CLIENT ?? 1200))) return fail(reply, 429, 'RATE_LIMITED');
  if (!grant.scope.split(' ').includes('profile')) return fail(reply, 403, 'INSUFFICIENT_SCOPE');
  reply.header('content-language', 'tr');
  return { data: findUser.get(grant.user_id) };
});

app.get('/api/public/v1/startups', async (request, reply) => {
  const match = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '');
  const grant = match ? findToken.get(sha256(match[1]), Date.now()) : undefined;
  if (!grant) {
    charge(reply, `ip:${request.ip}`, 60);
    reply.header('www-authenticate', 'Bearer realm="api", error="invalid_token"');
    return fail(reply, 401, 'UNAUTHORIZED');
  }
  if (!charge(reply, `client:${grant.client_id}`, Number(process.env.RATE_LIMIT_CLIENT ?? 1200))) return fail(reply, 429, 'RATE_LIMITED');
  if (!grant.scope.split(' ').includes('read:startups')) return fail(reply, 403, 'INSUFFICIENT_SCOPE');
  const limit = Math.min(100, Math.max(1, Number(request.query.limit ?? 20) || 20));
  const offset = Math.max(0, Number(request.query.offset ?? 0) || 0);
  const pattern = `%${fold(String(request.query.q ?? '').trim()).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const data = searchPage.all(pattern, limit, offset).map((row) => ({
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    website: row.website,
    foundedYear: row.founded_year,
    city: row.city,
    industry: { id: row.industry_id, name: row.industry_name },
  }));
  reply.header('content-language', 'tr');
  return { data, meta: { total: searchCount.get(pattern).total, limit, offset } };
});

app.get('/health', async () => ({ status: 'ok' }));

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`listening ${app.server.address().port}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

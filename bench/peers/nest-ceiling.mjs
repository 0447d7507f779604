// The idiom's ceiling: what the design card's pipeline allows at best. The smallest Nest 12 app on
// Fastify that does P1's and P2's route work the way the card asks for it and nothing more: Passport
// strategies run by `AuthGuard`s (`passport-headerapikey` for the optional API key, `passport-http-bearer`
// for the token), one global interceptor that puts on the `{data}` envelope, and the bare peer's work
// by hand (SHA-256 look-ups through better-sqlite3 prepared statements, an in-memory fixed-window counter
// with the RateLimit headers, one pino access-log line per request). The service, measured against it,
// shows what it adds beyond the card's idioms and its real work.
//
// Plain ES module with the decorators applied as functions, so that the peer needs no build step.
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { Controller, Get, HttpException, Injectable, Module, Req, Res, UseGuards } from '@nestjs/common';
import { APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import pino from 'pino';
import { map } from 'rxjs';
// The service's own choice of better-sqlite3 build for the running Node (the bench builds dist/ first).
import { betterSqlite3 } from '../../dist/database/sqlite-driver.js';

const Database = betterSqlite3();

const db = new Database(process.env.SQLITE_PATH, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const findKey = db.prepare('SELECT id, tier, revoked_at FROM api_keys WHERE key_hash = ?');
const listIndustries = db.prepare('SELECT id, name FROM industries ORDER BY sort_name, id');
const findToken = db.prepare(
  'SELECT t.user_id, t.client_id, t.scope FROM oauth_access_tokens t JOIN oauth_clients c ON c.id = t.client_id ' +
    'WHERE t.token_hash = ? AND t.revoked_at IS NULL AND t.expires_at > ?',
);
const findUser = db.prepare('SELECT id, name, email FROM users WHERE id = ?');
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

class ApiKeyStrategy extends PassportStrategy(HeaderAPIKeyStrategy, 'api-key') {
  constructor() {
    super({ header: 'x-api-key', prefix: '' }, false);
  }
  validate(key) {
    const row = findKey.get(sha256(key));
    return row && row.revoked_at === null ? row : false;
  }
}
Injectable()(ApiKeyStrategy);

class TokenStrategy extends PassportStrategy(BearerStrategy, 'bearer') {
  validate(token) {
    return findToken.get(sha256(token), Date.now()) ?? false;
  }
}
Injectable()(TokenStrategy);

/** The API key is optional: Passport runs only when the header was sent. */
class OptionalApiKeyGuard extends AuthGuard('api-key') {
  canActivate(context) {
    return context.switchToHttp().getRequest().headers['x-api-key'] === undefined ? true : super.canActivate(context);
  }
}
Injectable()(OptionalApiKeyGuard);

class BearerGuard extends AuthGuard('bearer') {}
Injectable()(BearerGuard);

class EnvelopeInterceptor {
  intercept(_context, next) {
    return next.handle().pipe(map((data) => ({ data })));
  }
}
Injectable()(EnvelopeInterceptor);

class ApiController {
  industries(request, reply) {
    const key = request.user;
    const limit = key ? (key.tier === 'partner' ? Number(process.env.RATE_LIMIT_PARTNER ?? 6000) : Number(process.env.RATE_LIMIT_STANDARD ?? 600)) : 60;
    if (!charge(reply, key ? `key:${key.id}` : `ip:${request.ip}`, limit)) throw new HttpException({ error: { code: 'RATE_LIMITED' } }, 429);
    reply.header('content-language', 'tr');
    return listIndustries.all();
  }
  me(request, reply) {
    const grant = request.user;
    if (!charge(reply, `client:${grant.client_id}`, Number(process.env.RATE_LIMIT_CLIENT ?? 1200))) throw new HttpException({ error: { code: 'RATE_LIMITED' } }, 429);
    reply.header('content-language', 'tr');
    return findUser.get(grant.user_id);
  }
}
const route = (name, path, guard) => {
  const descriptor = Object.getOwnPropertyDescriptor(ApiController.prototype, name);
  Get(path)(ApiController.prototype, name, descriptor);
  UseGuards(guard)(ApiController.prototype, name, descriptor);
  Req()(ApiController.prototype, name, 0);
  Res({ passthrough: true })(ApiController.prototype, name, 1);
};
route('industries', 'industries', OptionalApiKeyGuard);
route('me', 'me', BearerGuard);
Controller('api/public/v1')(ApiController);

class HealthController {
  health() {
    return 'ok';
  }
}
Get('health')(HealthController.prototype, 'health', Object.getOwnPropertyDescriptor(HealthController.prototype, 'health'));
Controller()(HealthController);

class AppModule {}
Module({
  imports: [PassportModule],
  controllers: [ApiController, HealthController],
  providers: [ApiKeyStrategy, TokenStrategy, { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor }],
})(AppModule);

const adapter = new FastifyAdapter({ logger: false });
adapter.getInstance().addHook('onResponse', async (request, reply) => {
  log.info({ requestId: request.id, method: request.method, url: request.url, status: reply.statusCode, durationMs: reply.elapsedTime }, 'request completed');
});
const app = await NestFactory.create(AppModule, adapter, { logger: false });
await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.stdout.write(`listening ${app.getHttpServer().address().port}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

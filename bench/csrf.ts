// The pages' CSRF check (src/web/forms/page-form.guard.ts: the same-origin check, then CsrfTokens, an HMAC
// of the session id: OWASP's signed double-submit token) against @fastify/csrf-protection
// (README.md "Why it is made so"), configured to bind its token to the same session id (`getUserInfo`):
//   1. what it costs a browser: the plugin keeps its secret in a cookie of its own (or in @fastify/session
//      or @fastify/secure-session, which the service does not use: its session is a sealed cookie);
//      CsrfTokens needs nothing but the session;
//   2. the CPU cost of issuing and checking one token, each way, bound to the session id.
//   npx tsx bench/csrf.ts [iterations=100000]
import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import CsrfLibraryTokens from '@fastify/csrf';
import fastifyCsrf from '@fastify/csrf-protection';
import Fastify from 'fastify';
import { CsrfTokens } from '../src/common/crypto/sealer';

const ITERATIONS = Number(process.argv[2] ?? 100_000);
const SECRET = randomBytes(32).toString('base64url');

async function main(): Promise<void> {
  const sid = randomBytes(16).toString('base64url');
  const app = Fastify();
  await app.register(fastifyCookie, { secret: SECRET });
  await app.register(fastifyCsrf, { getUserInfo: () => sid, csrfOpts: { hmacKey: SECRET }, cookieOpts: { signed: true, httpOnly: true, sameSite: 'lax', path: '/' } });
  app.get('/form', async (_request, reply) => ({ token: await reply.generateCsrf({ userInfo: sid }) }));
  app.post('/change', { onRequest: app.csrfProtection }, async () => ({ changed: true }));
  const form = await app.inject({ method: 'GET', url: '/form' });
  const cookie = form.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const token = (form.json() as { token: string }).token;
  const posted = await app.inject({ method: 'POST', url: '/change', headers: { cookie, 'content-type': 'application/json', 'csrf-token': token }, payload: '{}' });
  console.log(`1. @fastify/csrf-protection: the form page sets ${form.cookies.length} cookie(s) of its own (${form.cookies.map((c) => c.name).join(', ')}); the post answers ${posted.statusCode}. CsrfTokens: none.`);
  await app.close();

  const ours = new CsrfTokens(SECRET);
  // With userInfo the library requires an HMAC key, as CsrfTokens has.
  const library = new CsrfLibraryTokens({ userInfo: true, hmacKey: SECRET });
  const secret = library.secretSync();
  const measure = (work: () => void): number => {
    for (let i = 0; i < 10_000; i++) work();
    const started = process.cpuUsage();
    for (let i = 0; i < ITERATIONS; i++) work();
    const used = process.cpuUsage(started);
    return (used.user + used.system) / ITERATIONS;
  };
  const oursMicros = measure(() => {
    if (!ours.verify(sid, ours.issue(sid))) throw new Error('refused');
  });
  const libraryMicros = measure(() => {
    if (!library.verify(secret, library.create(secret, sid), sid)) throw new Error('refused');
  });
  console.log(`2. issue and check one token bound to the session: CsrfTokens ${oursMicros.toFixed(2)} CPU µs, @fastify/csrf ${libraryMicros.toFixed(2)} CPU µs (its cookie's signature check not included)`);
}

void main();

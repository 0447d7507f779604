import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { formInputs, signInAt } from '../helpers/account';
import { authorizationCode, introspect, Provisioned, redeem, REDIRECT_URI } from '../helpers/flows';
import { BrowserSession, createSignInUser, OAuthTestClient, OAuthTestUser, registerClient } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';
import { PAGE_FIELD_MAX } from '../../src/web/forms/page-form.dto';

const LEAKS = [/\n\s+at /, /node_modules/, /QueryFailedError/i, /SQLITE_/, /typeorm/i, /syntax error at or near/i, /\.ts:\d+/, /\/src\//, /pg-pool/i];
const FORM = 'application/x-www-form-urlencoded';

/** Strings an attacker types into a form: markup, SQL, NUL and control bytes, numbers of every shape, huge. */
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    "1' OR '1'='1",
    "'; DELETE FROM oauth_consents; --",
    '<script>alert(1)</script>',
    '\u0000',
    'a\u0000b',
    '\r\n',
    '\uD800',
    '__proto__',
    'constructor',
    '0',
    '-1',
    '1e3',
    '0x10',
    'NaN',
    '1.5',
    '99999999999999999999999999999999',
    '-99999999999999999999999999999999',
  ),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.string({ minLength: 60, maxLength: 80 }),
  fc.string({ minLength: 2000, maxLength: 6000 }),
);
const field = fc.oneof(nasty, fc.array(nasty, { maxLength: 3 }));

/** A form post can only carry well-formed text: a lone surrogate arrives as U+FFFD. */
const wellFormed = (value: string) => value.replace(/[\uD800-\uDFFF]/g, '\uFFFD');

/** The bodies a client can send: the form the pages use, and everything else. */
const CONTENT_TYPES = [
  FORM,
  `${FORM}; charset=UTF-8`,
  'APPLICATION/X-WWW-FORM-URLENCODED',
  'application/json',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/x-www-form-urlencodedx',
  'no/such-type',
  undefined,
] as const;
type ContentType = (typeof CONTENT_TYPES)[number];
const isForm = (type: ContentType) => type !== undefined && type.toLowerCase().startsWith(FORM) && !type.toLowerCase().startsWith(`${FORM}x`);

type Fields = Record<string, string | string[]>;

function encode(type: ContentType, fields: Fields): string {
  const pairs = Object.entries(fields).flatMap(([name, value]) => [value].flat().map((one) => [name, wellFormed(one)] as const));
  if (type === 'application/json') return JSON.stringify(Object.fromEntries(pairs));
  if (type === 'multipart/form-data; boundary=x') {
    return pairs.map(([name, value]) => `--x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') + '--x--\r\n';
  }
  const body = new URLSearchParams();
  for (const [name, value] of pairs) body.append(name, value);
  return body.toString();
}

/**
 * Hostile input over the account forms (README.md, Your account): `POST /account/sign-out` and Revoke access
 * (`POST /account/apps/revoke`). Whatever is posted — any body, any content type, a missing, forged or
 * other session's CSRF token, a signed-out session, an id that is not one the user granted — the answer
 * is never a 5xx and never leaks internals: a 403 page for a bad CSRF token or something not owned, a
 * 400/413/415 page for a body that cannot be read; and nothing changes: the consents, the tokens, the
 * signed-out sessions and the security events stay as they were, and the user stays signed in.
 */
describe('hostile input on the account forms', () => {
  let t: TestApp;
  let ada: OAuthTestUser;
  let adaBrowser: BrowserSession;
  let own: OAuthTestClient;
  let adaTokens: { access_token: string; refresh_token: string };
  let p: Provisioned;
  /** Cookie jar and CSRF token of each session a post can borrow. */
  let sessions: Record<'ada' | 'adaElsewhere' | 'bob' | 'signedOut', { cookie: string; token: string }>;
  let strangers: { victimClientId: string; ungrantedClientId: string };

  async function session(browser: BrowserSession): Promise<{ cookie: string; token: string }> {
    const page = await browser.get('/account');
    return { cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '), token: formInputs(page.text, '/account/sign-out').csrf_token };
  }

  beforeAll(async () => {
    t = await startTestApp();
    own = await registerClient(t.app, { redirectUris: [REDIRECT_URI], scopes: ['profile'], name: 'Own app' });
    ada = await createSignInUser(t.app);
    adaBrowser = new BrowserSession(t.url);
    await signInAt(adaBrowser, '/account', ada);
    p = { user: ada, client: { clientId: own.clientId, clientSecret: own.clientSecret!, redirectUri: REDIRECT_URI } };
    adaTokens = (await redeem(t.url, p, await authorizationCode(adaBrowser, p, 'profile'))).body;

    // Another user's grant of another application, and an application nobody granted.
    const victim = await createSignInUser(t.app);
    const victimClient = await registerClient(t.app, { redirectUris: [REDIRECT_URI], scopes: ['profile'], name: 'Victim app' });
    const victimP: Provisioned = { user: victim, client: { clientId: victimClient.clientId, clientSecret: victimClient.clientSecret!, redirectUri: REDIRECT_URI } };
    expect((await redeem(t.url, victimP, await authorizationCode(new BrowserSession(t.url), victimP, 'profile'))).status).toBe(200);
    const ungranted = await registerClient(t.app, { redirectUris: [REDIRECT_URI], scopes: ['profile'] });
    strangers = { victimClientId: victimClient.clientId, ungrantedClientId: ungranted.clientId };

    const adaElsewhere = new BrowserSession(t.url);
    await signInAt(adaElsewhere, '/account', ada);
    const bob = new BrowserSession(t.url);
    await signInAt(bob, '/account', await createSignInUser(t.app));
    const signedOut = new BrowserSession(t.url);
    await signInAt(signedOut, '/account', ada);
    const before = await session(signedOut);
    expect((await signedOut.post('/account/sign-out', { csrf_token: before.token })).status).toBe(303);
    sessions = { ada: await session(adaBrowser), adaElsewhere: await session(adaElsewhere), bob: await session(bob), signedOut: before };
  }, 300_000);
  afterAll(() => t?.close());

  /** Everything a post could change: consents, tokens, signed-out sessions, security events. */
  async function snapshot(): Promise<string> {
    const db = t.app.get(DataSource);
    const [consents, access, refresh, ended, events] = await Promise.all([
      db.query('SELECT * FROM oauth_consents ORDER BY id'),
      db.query('SELECT * FROM oauth_access_tokens ORDER BY id'),
      db.query('SELECT * FROM oauth_refresh_tokens ORDER BY id'),
      db.query('SELECT sid, expires_at FROM ended_sessions ORDER BY sid'),
      db.query('SELECT id, user_id, type FROM security_events ORDER BY id'),
    ]);
    return JSON.stringify({ consents, access, refresh, ended, events });
  }

  async function post(path: string, cookie: string | undefined, type: ContentType, body: string) {
    const res = await fetch(t.url + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'accept-language': 'en', origin: t.url, 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}), ...(type ? { 'content-type': type } : {}) },
      // Bytes, not a string: fetch would label a string text/plain, and no content type is a case of its own.
      body: Buffer.from(body),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** Refused, clearly, and harmlessly: a documented page, no internals, no cookie changed. */
  function expectRefused(where: string, res: { status: number; headers: Headers; text: string }, expected: number[]): void {
    expect([where, expected.includes(res.status)]).toEqual([where, true]);
    expect([where, res.headers.get('content-type')]).toEqual([where, 'text/html; charset=utf-8']);
    for (const leak of LEAKS) expect([where, leak.test(res.text)]).toEqual([where, false]);
    expect([where, /<script/i.test(res.text)]).toEqual([where, false]);
    expect([where, res.headers.getSetCookie()]).toEqual([where, []]);
    const alert = /role="alert">([^<]*)</.exec(res.text)?.[1] ?? '';
    if (res.status === 403) expect([where, alert]).toEqual([where, expect.stringMatching(/^[A-Z].*\. Nothing was changed\.$/)]);
    else expect([where, alert]).toEqual([where, expect.stringMatching(/^[A-Z].*\.$/)]);
  }

  async function expectAdaUntouched(): Promise<void> {
    expect((await adaBrowser.get('/account')).status).toBe(200);
    expect((await introspect(t.url, p, adaTokens.access_token)).body.active).toBe(true);
    expect((await introspect(t.url, p, adaTokens.refresh_token)).body.active).toBe(true);
  }

  const clientId = () => fc.oneof(fc.constant(own.clientId), fc.constantFrom(strangers.victimClientId, strangers.ungrantedClientId), nasty);
  // A field named __proto__ never reaches the CSRF check: the form parser refuses the body first (the
  // test below), so the properties leave that one name out.
  const extras = fc.dictionary(
    fc.string({ maxLength: 12 }).filter((name) => name !== 'csrf_token' && name !== 'client_id' && name !== '__proto__'),
    field,
    { maxKeys: 4 },
  );

  it('changes nothing without the CSRF token of the signed-in session in a form: any body, any content type, any session', async () => {
    const before = await snapshot();
    const credentials = fc.constantFrom('own', 'missing', 'forged', 'repeated', 'otherUser', 'sameUserElsewhere', 'signedOutToken', 'bobCookie', 'signedOutCookie', 'noCookie');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/account/sign-out', '/account/apps/revoke'),
        credentials,
        fc.constantFrom(...CONTENT_TYPES),
        clientId(),
        extras,
        // Mostly the fields encoded as the content type says; sometimes a raw body of any shape.
        fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: nasty, weight: 1 }),
        fc.nat(),
        async (path, credential, type, target, extra, raw, seed) => {
          // The session's own token in a form is a real post, not hostile input: only other bodies carry it.
          fc.pre(!(credential === 'own' && isForm(type)));
          const token = sessions.ada.token;
          const forged = token.slice(0, seed % token.length) + (token[seed % token.length] === 'A' ? 'B' : 'A') + token.slice((seed % token.length) + 1);
          const { cookie, csrf } = {
            own: { cookie: sessions.ada.cookie, csrf: token },
            missing: { cookie: sessions.ada.cookie, csrf: undefined },
            forged: { cookie: sessions.ada.cookie, csrf: forged },
            repeated: { cookie: sessions.ada.cookie, csrf: [token, token] },
            otherUser: { cookie: sessions.ada.cookie, csrf: sessions.bob.token },
            sameUserElsewhere: { cookie: sessions.ada.cookie, csrf: sessions.adaElsewhere.token },
            signedOutToken: { cookie: sessions.ada.cookie, csrf: sessions.signedOut.token },
            bobCookie: { cookie: sessions.bob.cookie, csrf: token },
            // A copy of a cookie from before its sign-out, with its own valid token: the session is over.
            signedOutCookie: { cookie: sessions.signedOut.cookie, csrf: sessions.signedOut.token },
            noCookie: { cookie: undefined, csrf: token },
          }[credential];
          const fields: Fields = { ...extra, ...(csrf === undefined ? {} : { csrf_token: csrf }), client_id: target };
          const body = raw === undefined ? encode(type, fields) : wellFormed(raw);
          const res = await post(path, cookie, type, body);
          const where = `${path} ${credential} ${type} ${body.slice(0, 200)} → ${res.status} ${res.text.slice(0, 200)}`;
          // 403: the CSRF check (or a signed-out session); 400/415: a body the server cannot read.
          expectRefused(where, res, [400, 403, 415]);
          if (isForm(type) && raw === undefined) expect([where, res.status]).toEqual([where, 403]);
          expect([where, await snapshot()]).toEqual([where, before]);
        },
      ),
      { numRuns: 150, endOnFailure: true },
    );
    await expectAdaUntouched();
  }, 120_000);

  it('answers 403 (or 400 for a form it cannot read) and changes nothing when Revoke access names anything but an application the user granted', async () => {
    const before = await snapshot();
    // Near misses of the user's own client_id, the id of its row, numbers of every shape, others' applications.
    const notGranted = fc.oneof(
      nasty,
      fc.constantFrom(
        strangers.victimClientId,
        strangers.ungrantedClientId,
        String(own.id),
        ` ${own.clientId}`,
        `${own.clientId} `,
        own.clientId.toUpperCase(),
        `${own.clientId}\u0000`,
        own.clientId.slice(0, -1),
        `${own.clientId}%`,
        `${own.clientId}'--`,
        '',
      ),
      fc.array(fc.constant(own.clientId), { minLength: 2, maxLength: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(notGranted, extras, fc.constantFrom(FORM, `${FORM}; charset=UTF-8`), async (target, extra, type) => {
        fc.pre(target !== own.clientId);
        const body = encode(type, { ...extra, client_id: target, csrf_token: sessions.ada.token });
        const res = await post('/account/apps/revoke', sessions.ada.cookie, type, body);
        const where = `revoke ${body.slice(0, 200)} → ${res.status} ${res.text.slice(0, 200)}`;
        // A form with fields it does not have is unreadable (400, docs/add-a-module.md: page forms refuse
        // unknown fields as the API's bodies do); a readable one naming no granted application is 403.
        // Readable: only its own fields, each one string within the limit; that one must be the 403 that names why.
        const readable = Object.keys(extra).length === 0 && typeof target === 'string' && target.length <= PAGE_FIELD_MAX;
        expectRefused(where, res, readable ? [403] : [400, 403]);
        if (res.status === 403) expect([where, /This is not yours, or it no longer exists\./.test(res.text)]).toEqual([where, true]);
        else expect([where, /The request could not be read\./.test(res.text)]).toEqual([where, true]);
        expect([where, await snapshot()]).toEqual([where, before]);
      }),
      { numRuns: 150, endOnFailure: true },
    );
    await expectAdaUntouched();
  }, 120_000);

  it('answers 400 "could not be read" to a form with a field named __proto__, even with the real token, and changes nothing', async () => {
    const before = await snapshot();
    for (const path of ['/account/sign-out', '/account/apps/revoke']) {
      const body = `__proto__=x&csrf_token=${encodeURIComponent(sessions.ada.token)}&client_id=${encodeURIComponent(own.clientId)}`;
      const res = await post(path, sessions.ada.cookie, FORM, body);
      const where = `${path} → ${res.status} ${res.text.slice(0, 200)}`;
      expectRefused(where, res, [400]);
      expect([where, res.text.includes('The request could not be read.')]).toEqual([where, true]);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('does change things for the real forms, so the checks above would see a change', async () => {
    const before = await snapshot();
    const revoked = await post('/account/apps/revoke', sessions.ada.cookie, FORM, encode(FORM, { client_id: own.clientId, csrf_token: sessions.ada.token }));
    expect(revoked.status).toBe(303);
    expect(await snapshot()).not.toEqual(before);
    expect((await introspect(t.url, p, adaTokens.access_token)).body).toEqual({ active: false });

    const revokedState = await snapshot();
    const out = await post('/account/sign-out', sessions.ada.cookie, FORM, encode(FORM, { csrf_token: sessions.ada.token }));
    expect(out.status).toBe(303);
    expect(await snapshot()).not.toEqual(revokedState);
    expect((await adaBrowser.get('/account')).status).toBe(303);
  });
});

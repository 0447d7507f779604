import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { EndedSessionsRepository } from './ended-sessions.repository';
import { SESSION_COOKIE, SessionService, TRANSACTION_TTL_MS } from './session.service';

describe('SessionService', () => {
  function setUp(endedSids: string[] = [], clock = new Clock(), sessionsValidFrom: number | null = null) {
    const inserted: unknown[] = [];
    // The one lookup of a signed-in session: signed out (ended_sessions), or begun before the account's
    // sessions_valid_from (a password reset or change).
    const lookup = jest.fn(async (_sql: string, [sid, , authAt]: [string, number, number]) => ({
      records: endedSids.includes(sid) || (sessionsValidFrom !== null && sessionsValidFrom > authAt) ? [{ ended: 1 }] : [],
    }));
    // Inserts are recorded apart, so that `lookup` holds the lookups alone.
    const query = async (sql: string, values: [string, number, number]) =>
      sql.startsWith('INSERT INTO ended_sessions') ? (inserted.push({ sid: values[0], expiresAt: values[1] }), { records: [], affected: 1 }) : lookup(sql, values);
    const ended = { options: { type: 'better-sqlite3' }, createQueryRunner: () => ({ query }) };
    const sut = new SessionService(
      { sessionSecret: 'a-session-secret-of-at-least-32-characters', sessionTtlSeconds: 3600 } as never,
      { secureCookies: false } as never,
      new EndedSessionsRepository(ended as unknown as DataSource),
      clock,
    );
    return { sut, ended, inserted, lookup };
  }

  /** A reply that keeps the session cookie it is given, and a request that sends it back. */
  function browser() {
    let cookie: string | undefined;
    const reply = {
      setCookie: (_name: string, value: string) => void (cookie = value),
      clearCookie: () => void (cookie = undefined),
    } as unknown as FastifyReply;
    const request = () => ({ cookies: cookie === undefined ? {} : { [SESSION_COOKIE]: cookie } }) as unknown as FastifyRequest;
    return { reply, request };
  }

  it('refuses a signed-in session begun before the account’s sessions_valid_from, and keeps one begun at or after it', async () => {
    const clock = new Clock();
    jest.spyOn(clock, 'now').mockReturnValue(1_000_000);
    const before = setUp([], clock, 1_000_001);
    const first = browser();
    await before.sut.signIn(first.reply, 7, ['pwd']);
    expect(await before.sut.read(first.request())).toBeNull();
    const after = setUp([], clock, 1_000_000);
    const second = browser();
    await after.sut.signIn(second.reply, 7, ['pwd']);
    expect(await after.sut.read(second.request())).toMatchObject({ uid: 7 });
  });

  it('records a proof on the same session: its id (so its CSRF token), sign-in time and expiry kept; only provenAt is new', async () => {
    const clock = new Clock();
    const now = jest.spyOn(clock, 'now').mockReturnValue(1_000_000);
    const { sut } = setUp([], clock);
    const { reply, request } = browser();
    const signedIn = await sut.signIn(reply, 7, ['pwd']);
    expect(sut.provenAt(signedIn)).toBe(1_000_000);
    now.mockReturnValue(1_900_000);
    const token = sut.csrfToken(signedIn);
    sut.proved(reply, signedIn);
    const read = (await sut.read(request()))!;
    expect(read).toEqual({ ...signedIn, provenAt: 1_900_000 });
    expect(sut.provenAt(read)).toBe(1_900_000);
    expect(sut.verifyCsrf(read, token)).toBe(true);
  });

  it('reads an anonymous session without asking the database', async () => {
    const { sut, lookup } = setUp();
    const { reply, request } = browser();
    const started = sut.start(reply);
    expect(await sut.read(request())).toEqual(started);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('reads a signed-in session once the database says it was not signed out, with one lookup by id', async () => {
    const { sut, lookup } = setUp();
    const { reply, request } = browser();
    const session = await sut.signIn(reply, 7, ['pwd']);
    expect(await sut.read(request())).toEqual(session);
    expect(lookup.mock.calls.map(([, values]) => values)).toEqual([[session.sid, 7, session.authAt]]);
  });

  it('treats a signed-out session as none', async () => {
    const { reply, request } = browser();
    const { sut: signer } = setUp();
    const session = await signer.signIn(reply, 7, ['pwd']);
    const { sut } = setUp([session.sid]);
    expect(await sut.read(request())).toBeNull();
  });

  it('records a signed-in session as ended until its cookie expires, then clears the cookie', async () => {
    const { sut, inserted } = setUp();
    const { reply, request } = browser();
    const session = await sut.signIn(reply, 7, ['pwd']);
    await sut.signOut(session, reply);
    expect(inserted).toEqual([{ sid: session.sid, expiresAt: session.exp }]);
    expect(await sut.read(request())).toBeNull();
  });

  it('ends the signed-in session a new sign-in replaces, and records nothing when it replaces an anonymous one', async () => {
    const { sut, inserted } = setUp();
    const { reply } = browser();
    const anonymous = sut.start(reply);
    const first = await sut.signIn(reply, 7, ['pwd'], anonymous);
    expect(inserted).toEqual([]);
    const second = await sut.signIn(reply, 8, ['pwd'], first);
    expect(inserted).toEqual([{ sid: first.sid, expiresAt: first.exp }]);
    expect(second.sid).not.toBe(first.sid);
  });

  it('records nothing for an anonymous session or none', async () => {
    const { sut, inserted } = setUp();
    const { reply } = browser();
    await sut.signOut(sut.start(reply), reply);
    await sut.signOut(null, reply);
    expect(inserted).toEqual([]);
  });

  it('takes the time from the Clock: the sign-in time, and the end of the session and of a pending request', async () => {
    let now = Date.UTC(2026, 0, 1);
    const clock = { now: () => now } as Clock;
    const { sut } = setUp([], clock);
    const { reply, request } = browser();
    const session = await sut.signIn(reply, 7, ['pwd']);
    expect(session).toMatchObject({ authAt: now, exp: now + 3_600_000 });
    const sealed = sut.sealTransaction({ clientId: 'c', redirectUri: 'https://app.example/cb', scope: ['profile'], forceConsent: false }, session);

    now += TRANSACTION_TTL_MS - 1;
    expect(sut.openTransaction(sealed, session)).toMatchObject({ clientId: 'c' });
    now += 1;
    expect(sut.openTransaction(sealed, session)).toBeNull();

    now = session.exp - 1;
    expect(await setUp([], clock).sut.read(request())).toMatchObject({ sid: session.sid });
    now = session.exp;
    expect(await setUp([], clock).sut.read(request())).toBeNull();
  });
});

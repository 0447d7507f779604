import type { FastifyReply, FastifyRequest } from 'fastify';
import { Sealer } from '../crypto/sealer';
import { SealedCookie } from './shown-once-cookie';

const SECRET = 'a-session-secret-of-at-least-32-characters';
const NOW = 1_790_000_000_000;
const OPTIONS = { name: 'sp_test', purpose: 'test', path: '/account/test', sameSite: 'strict' as const, secure: true, ttlMs: 300_000 };

function replyRecorder() {
  const set: Array<{ name: string; value: string; options: Record<string, unknown> }> = [];
  const cleared: Array<{ name: string; options: Record<string, unknown> }> = [];
  const reply = {
    setCookie: (name: string, value: string, options: Record<string, unknown>) => set.push({ name, value, options }),
    clearCookie: (name: string, options: Record<string, unknown>) => cleared.push({ name, options }),
  } as unknown as FastifyReply;
  return { reply, set, cleared };
}

const requestWith = (cookies: Record<string, string>) => ({ cookies }) as unknown as FastifyRequest;

describe('SealedCookie', () => {
  const sut = new SealedCookie<{ codes: string[] }>(SECRET, OPTIONS);

  it('holds a value for one session and gives it back once, clearing the cookie with the attributes it was set with', () => {
    const { reply, set, cleared } = replyRecorder();
    sut.holdFor(reply, 'sid-1', { codes: ['a', 'b'] }, NOW);
    expect(set[0]).toMatchObject({ name: 'sp_test', options: { path: '/account/test', httpOnly: true, sameSite: 'strict', secure: true, maxAge: 300 } });
    expect(sut.takeFor(requestWith({ sp_test: set[0].value }), reply, 'sid-1', NOW)).toEqual({ codes: ['a', 'b'] });
    expect(cleared).toEqual([{ name: 'sp_test', options: { path: '/account/test', httpOnly: true, sameSite: 'strict', secure: true } }]);
  });

  it('gives nothing to another session, after the expiry, or for a value sealed for another purpose, and clears the cookie all the same', () => {
    const { reply, set, cleared } = replyRecorder();
    sut.holdFor(reply, 'sid-1', { codes: ['a'] }, NOW);
    expect(sut.takeFor(requestWith({ sp_test: set[0].value }), reply, 'sid-2', NOW)).toBeNull();
    expect(sut.takeFor(requestWith({ sp_test: set[0].value }), reply, 'sid-1', NOW + OPTIONS.ttlMs)).toBeNull();
    const foreign = new Sealer(SECRET, 'other').seal({ sid: 'sid-1', codes: ['x'] }, NOW + 1000);
    expect(sut.takeFor(requestWith({ sp_test: foreign }), reply, 'sid-1', NOW)).toBeNull();
    expect(cleared).toHaveLength(3);
    expect(sut.takeFor(requestWith({}), reply, 'sid-1', NOW)).toBeUndefined();
    expect(cleared).toHaveLength(3);
  });

  it('writes and opens a long-lived value without a session, and opens nothing that is not its own', () => {
    const { reply, set } = replyRecorder();
    sut.write(reply, { codes: ['c'] }, NOW);
    expect(sut.read(requestWith({ sp_test: set[0].value }))).toBe(set[0].value);
    expect(sut.open(set[0].value, NOW)).toEqual({ codes: ['c'] });
    expect(sut.open(set[0].value, NOW + OPTIONS.ttlMs)).toBeNull();
    expect(sut.open(42, NOW)).toBeNull();
  });
});

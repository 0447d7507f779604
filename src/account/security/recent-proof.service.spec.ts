import { Clock } from '../../common/clock';
import type { Session } from '../../web/session/session.service';
import type { SignedIn } from '../signed-in-page.guard';
import { ConfirmAccessForm } from './confirm-access.form';
import { RecentProofService } from './recent-proof.service';

describe('RecentProofService', () => {
  const session: Session = { sid: 'sid', uid: 7, authAt: 1_000_000, exp: 9_000_000 };

  function setUp(passkey: { ok: true; user: { id: number } } | { ok: false; problem?: string; userId?: number } = { ok: false }, now = 1_000_000) {
    const clock = { now: () => now } as Clock;
    const sessions = { provenAt: (s: Session) => Math.max(s.provenAt ?? 0, s.authAt ?? 0) };
    const passkeys = { authenticate: jest.fn(async () => passkey), authenticationOptions: jest.fn(async () => '{}') };
    const secondFactor = { required: jest.fn(async () => true), verify: jest.fn(async () => ({ ok: true, method: 'totp' })) };
    const security = { checkPassword: jest.fn(async () => null) };
    const events = { record: jest.fn(async () => undefined) };
    const sut = new RecentProofService(sessions as never, passkeys as never, secondFactor as never, security as never, events as never, { reauthMaxAgeSeconds: 300 } as never, clock);
    return { sut, passkeys, secondFactor, security, events };
  }

  const account = { user: { id: 7, email: 'ada@example.com' }, session, ip: '192.0.2.1', language: 'en', csrfToken: 'csrf' } as unknown as SignedIn;

  function form(fields: Partial<ConfirmAccessForm>): ConfirmAccessForm {
    return Object.assign(new ConfirmAccessForm(), fields);
  }

  it('counts a proof exactly REAUTH_MAX_AGE old as recent, and not 1 ms later; a later confirmation counts from its own instant', () => {
    expect(setUp(undefined, 1_000_000 + 300_000).sut.isRecent(session)).toBe(true);
    expect(setUp(undefined, 1_000_000 + 300_001).sut.isRecent(session)).toBe(false);
    expect(setUp(undefined, 2_000_000 + 300_000).sut.isRecent({ ...session, provenAt: 2_000_000 })).toBe(true);
  });

  it('takes a passkey of this account that verified its user', async () => {
    const { sut } = setUp({ ok: true, user: { id: 7 } });
    await expect(sut.check(account, form({ passkey: '{"id":"x"}' }))).resolves.toEqual({ ok: true });
  });

  it('refuses a passkey that PasskeysService found without user verification (possession only), and records a failed sign-in', async () => {
    const { sut, events } = setUp({ ok: false, problem: 'unverified', userId: 7 });
    await expect(sut.check(account, form({ passkey: '{"id":"x"}' }))).resolves.toEqual({ ok: false, problem: 'passkey_refused' });
    expect(events.record).toHaveBeenCalledWith(expect.objectContaining({ userId: 7, type: 'sign_in_failed' }));
  });

  it('refuses the passkey of another account, even one that verified its user', async () => {
    const { sut } = setUp({ ok: true, user: { id: 8 } });
    await expect(sut.check(account, form({ passkey: '{"id":"x"}' }))).resolves.toEqual({ ok: false, problem: 'passkey_refused' });
  });

  it('takes a current code of the app, but never spends a recovery code', async () => {
    const { sut, secondFactor } = setUp();
    await expect(sut.check(account, form({ code: '123 456' }))).resolves.toEqual({ ok: true });
    await expect(sut.check(account, form({ code: 'ABCD-EFGH-IJKL-MNOP' }))).resolves.toEqual({ ok: false, problem: 'invalid_code' });
    expect(secondFactor.verify).toHaveBeenCalledTimes(1);
  });

  it('checks the password as a sign-in is (the throttle and the event are checkPassword’s), and passes on its refusal', async () => {
    const { sut, security } = setUp();
    security.checkPassword.mockResolvedValueOnce({ kind: 'throttled', retryAfterSeconds: 42 } as never);
    await expect(sut.check(account, form({ current_password: 'x' }))).resolves.toEqual({ ok: false, problem: 'throttled', retryAfterSeconds: 42 });
    security.checkPassword.mockResolvedValueOnce({ kind: 'wrong_password' } as never);
    await expect(sut.check(account, form({ current_password: 'x' }))).resolves.toEqual({ ok: false, problem: 'wrong_password' });
    expect(security.checkPassword).toHaveBeenCalledWith(expect.objectContaining({ id: 7 }), 'x', '192.0.2.1');
  });
});

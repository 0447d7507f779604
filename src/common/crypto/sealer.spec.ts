import { CsrfTokens, Sealer } from './sealer';

const SECRET = 'a-session-secret-of-at-least-32-characters';

describe('Sealer', () => {
  const sut = new Sealer(SECRET, 'session');
  const now = Date.UTC(2026, 0, 1);
  const later = now + 60_000;

  it('opens what it sealed, with the expiry inside', () => {
    const sealed = sut.seal({ sid: 'abc', uid: 7 }, later);
    expect(sut.open<{ sid: string; uid: number }>(sealed, now)).toEqual({ sid: 'abc', uid: 7, exp: later });
  });

  it('hides the payload', () => {
    const sealed = sut.seal({ email: 'ada@example.com' }, later);
    expect(Buffer.from(sealed.slice(3), 'base64url').toString('latin1')).not.toContain('ada@example.com');
  });

  it('refuses a value with any byte changed', () => {
    const sealed = sut.seal({ uid: 1 }, later);
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    for (const index of [0, 12, raw.length - 1]) {
      const tampered = Buffer.from(raw);
      tampered[index] ^= 0x01;
      expect(sut.open(`v1.${tampered.toString('base64url')}`, now)).toBeNull();
    }
  });

  it('refuses an expired value', () => {
    const sealed = sut.seal({ uid: 1 }, now + 1000);
    expect(sut.open(sealed, now + 999)).toEqual({ uid: 1, exp: now + 1000 });
    expect(sut.open(sealed, now + 1000)).toBeNull();
  });

  it('refuses a value sealed for another purpose or with another secret', () => {
    const sealed = sut.seal({ uid: 1 }, later);
    expect(new Sealer(SECRET, 'transaction').open(sealed, now)).toBeNull();
    expect(new Sealer(`${SECRET}-other`, 'session').open(sealed, now)).toBeNull();
  });

  it.each([undefined, '', 'v1.', 'v2.abc', 'v1.!!!!', `v1.${'A'.repeat(9000)}`])('refuses the malformed value %p', (value) => {
    expect(sut.open(value, now)).toBeNull();
  });
});

describe('CsrfTokens', () => {
  const sut = new CsrfTokens(SECRET);

  it('accepts the token of the same session only', () => {
    const token = sut.issue('session-a');
    expect(sut.verify('session-a', token)).toBe(true);
    expect(sut.verify('session-b', token)).toBe(false);
  });

  it.each([undefined, '', 'x', ['a'], 'A'.repeat(200)])('refuses %p', (token) => {
    expect(sut.verify('session-a', token)).toBe(false);
  });

  it('depends on the secret', () => {
    expect(new CsrfTokens(`${SECRET}-other`).issue('session-a')).not.toBe(sut.issue('session-a'));
  });
});

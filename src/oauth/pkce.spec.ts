import { isValidCodeVerifier, isValidS256Challenge, s256Challenge, verifyS256 } from './pkce';

describe('PKCE S256 (RFC 7636)', () => {
  // RFC 7636 Appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('computes the challenge of the RFC example', () => {
    expect(s256Challenge(verifier)).toBe(challenge);
    expect(isValidS256Challenge(challenge)).toBe(true);
  });

  it('accepts the matching verifier and refuses any other', () => {
    expect(verifyS256(verifier, challenge)).toBe(true);
    expect(verifyS256(`${verifier.slice(0, -1)}Y`, challenge)).toBe(false);
  });

  it.each([
    ['42 characters', 'a'.repeat(42)],
    ['129 characters', 'a'.repeat(129)],
    ['a character outside the set', `${'a'.repeat(42)}+`],
    ['a space', `${'a'.repeat(42)} `],
  ])('refuses a verifier with %s', (_case, value) => {
    expect(isValidCodeVerifier(value)).toBe(false);
    expect(verifyS256(value, s256Challenge(value))).toBe(false);
  });

  it('accepts verifiers of 43 and 128 characters from the whole set', () => {
    expect(isValidCodeVerifier('A-._~'.repeat(9).slice(0, 43))).toBe(true);
    expect(isValidCodeVerifier('z'.repeat(128))).toBe(true);
  });

  it.each(['', 'short', `${challenge}=`, challenge.replace('-', '+')])('refuses the challenge %p', (value) => {
    expect(isValidS256Challenge(value)).toBe(false);
  });
});

import { passwordProblem } from './password-rules';

describe('passwordProblem (ASVS 5.0 V6.2)', () => {
  const account = { email: 'Ada@Example.com', name: 'Ada Lovelace' };

  it('takes 8 to 128 characters of anything, with no composition rule', () => {
    for (const ok of ['kuzey rüzgarı esiyor', 'correct horse battery staple', 'ççççşşşşğğ', '😀😀😀😀😀😀😀😀', 'x'.repeat(128), 'lowercaseonlyword']) {
      expect(passwordProblem(ok, account)).toBeNull();
    }
  });

  it('counts characters, not bytes or UTF-16 units', () => {
    expect(passwordProblem('😀😀😀😀😀😀😀', account)).toBe('too_short');
    expect(passwordProblem('😀'.repeat(128), account)).toBeNull();
  });

  it('refuses a short, an overlong, a common one, and the account own email or name', () => {
    expect(passwordProblem('1234567', account)).toBe('too_short');
    expect(passwordProblem('x'.repeat(129), account)).toBe('too_long');
    for (const common of ['password', '12345678', 'Password1', 'iloveyou', 'qwertyuiop']) expect(passwordProblem(common, account)).toBe('common');
    expect(passwordProblem('ada@example.com', account)).toBe('same_as_email');
    expect(passwordProblem('ADA LOVELACE', account)).toBe('same_as_name');
  });
});

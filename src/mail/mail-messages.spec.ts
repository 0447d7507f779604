import { durationWords, maskEmail } from './mail-messages';

describe('maskEmail (SECURITY.md, "Taking over an account through a change of password or address")', () => {
  it('shows the first character of the local part and the whole domain', () => {
    expect(maskEmail('attacker@evil.example')).toBe('a***@evil.example');
    expect(maskEmail('x@example.com')).toBe('x***@example.com');
  });

  it('hides a local part that carries an @ of its own, and anything that is not an address', () => {
    expect(maskEmail('"a@b"@evil.example')).toBe('"***@evil.example');
    expect(maskEmail('not an address')).toBe('***');
    expect(maskEmail('@evil.example')).toBe('***');
  });
});

describe('durationWords', () => {
  it('says whole days past one day, else hours or minutes', () => {
    expect(durationWords(7 * 86_400, 'en')).toBe('7 days');
    expect(durationWords(7 * 86_400, 'tr')).toBe('7 gün');
    expect(durationWords(86_400, 'en')).toBe('24 hours');
    expect(durationWords(1_800, 'tr')).toBe('30 dakika');
  });
});

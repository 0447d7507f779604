import fc from 'fast-check';
import { DEFAULT_RETURN_PATH, safeReturnPath } from './return-path';

describe('safeReturnPath', () => {
  it('keeps the account pages asked for, with their query', () => {
    expect(safeReturnPath('/account')).toBe('/account');
    expect(safeReturnPath('/account/apps')).toBe('/account/apps');
    expect(safeReturnPath('/account/developer?tab=keys')).toBe('/account/developer?tab=keys');
  });

  it.each([
    ['another host', 'https://evil.example/account'],
    ['a scheme-relative URL', '//evil.example/account'],
    ['a backslash read as a slash', '/\\evil.example/account'],
    ['a tab dropped by the browser', '/\t/evil.example'],
    ['a page that asks for no sign-in', '/oauth/token'],
    ['a look-alike path', '/accounts'],
    ['a path climbing out', '/account/../oauth/authorize'],
    ['a fragment-only or relative value', 'account'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['nothing', undefined],
    ['an array (a repeated field)', ['/account', '/account/apps']],
  ])('returns to %s as the default page', (_name, value) => {
    expect(safeReturnPath(value)).toBe(DEFAULT_RETURN_PATH);
  });

  it('never leaves the site, whatever it is given', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.webPath(), fc.constantFrom('//', '/\\', '/account', '/account/')).chain((a) => fc.tuple(fc.constant(a), fc.string())), ([a, b]) => {
        const result = safeReturnPath(a + b);
        expect(result.startsWith('/account')).toBe(true);
        expect(result.startsWith('//')).toBe(false);
        expect(new URL(result, 'https://site.example').origin).toBe('https://site.example');
      }),
    );
  });
});

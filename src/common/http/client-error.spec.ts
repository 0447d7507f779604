import { hasFragmentInPath } from './client-error';

describe('hasFragmentInPath', () => {
  it.each([
    ['/oauth/token#x', true],
    ['/oauth/userinfo#', true],
    ['/a#b?c=d', true],
    ['/oauth/token', false],
    ['/oauth/token?state=a#b', false],
    ['/api/public/v1/startups?q=%23', false],
  ])('%s → %s', (url, expected) => {
    expect(hasFragmentInPath(url)).toBe(expected);
  });
});

import { isWellFormedAccessToken } from './access-token-lookup.service';

describe('isWellFormedAccessToken', () => {
  it.each([
    ['sp_at_' + 'A'.repeat(43), true],
    ['sp_at_abc-_.~+/==', true],
    ['sp_rt_' + 'A'.repeat(43), false],
    ['sp_at_abc$def', false],
    ['sp_at_abc=def', false],
    ['sp_at_' + 'A'.repeat(600), false],
    ['', false],
  ])('%s → %s', (token, expected) => {
    expect(isWellFormedAccessToken(token)).toBe(expected);
  });
});

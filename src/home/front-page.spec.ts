import { prefersHtml } from './front-page';

describe('prefersHtml (RFC 9110 §12.5.1)', () => {
  it.each([
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true],
    ['text/html', true],
    ['text/*', true],
    ['application/json;q=0.5, text/html', true],
    ['application/json, text/html;q=0.5', false],
    ['application/json', false],
    ['*/*', false],
    ['', false],
    [undefined, false],
    ['text/html;q=0', false],
    ['text/html;q=abc', false],
  ])('%j → %s', (accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected);
  });
});

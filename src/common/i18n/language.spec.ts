import fc from 'fast-check';
import { negotiateLanguage } from './language';

describe('negotiateLanguage', () => {
  it.each([
    [undefined, 'tr'],
    ['', 'tr'],
    ['en', 'en'],
    ['en-US', 'en'],
    ['EN-gb', 'en'],
    ['tr-TR', 'tr'],
    ['de, fr;q=0.9', 'tr'],
    ['de, en;q=0.1', 'en'],
    ['tr;q=0.4, en;q=0.6', 'en'],
    ['en;q=0, tr', 'tr'],
    ['*', 'tr'],
    [['en', 'tr;q=0.5'], 'en'],
  ])('picks the best supported language from %j', (header, expected) => {
    expect(negotiateLanguage(header as string)).toBe(expected);
  });

  it('never throws and always answers tr or en, whatever the header', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (header) => ['tr', 'en'].includes(negotiateLanguage(header))));
  });
});

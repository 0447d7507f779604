import fc from 'fast-check';
import { canonicalEmail, EmailProblem, emailKey } from './email-address';

describe('canonicalEmail', () => {
  it.each([
    ['bob@example.com', 'bob@example.com'],
    ['BOB@EXAMPLE.com', 'bob@example.com'],
    ['  Bob@Example.COM ', 'bob@example.com'],
    ['bob@ＥＸＡＭＰＬＥ.com', 'bob@example.com'], // full-width letters: UTS #46 maps them
    ['ali@ÖRNEK.com', 'ali@xn--rnek-4qa.com'],
    ['ali@örnek.com', 'ali@xn--rnek-4qa.com'],
    ['ali@XN--RNEK-4QA.COM', 'ali@xn--rnek-4qa.com'],
    ['bob+tag@mail.example.co.uk', 'bob+tag@mail.example.co.uk'],
    ["o'neil.x_y-z@example.org", "o'neil.x_y-z@example.org"],
  ])('takes %j as %j', (typed, canonical) => {
    expect(canonicalEmail(typed)).toEqual({ ok: true, email: canonical });
  });

  it.each<[string, EmailProblem]>([
    ['', 'missing'],
    ['   ', 'missing'],
    ['"bob"@example.com', 'quoted'],
    ['"bob smith"@example.com', 'quoted'],
    ['bob@exam\u00ADple.com', 'invisible'], // soft hyphen, which UTS #46 would silently drop
    ['bob\u200B@example.com', 'invisible'],
    ['bob@example\u200D.com', 'invisible'],
    ['\u202Emoc.elpmaxe@bob', 'invisible'],
    ['bob@exam\u034Fple.com', 'invisible'], // combining grapheme joiner, ignored by UTS #46 too
    ['bob@example.com\uFEFF', 'invisible'],
    ['bob\u00A0@example.com', 'invisible'],
    ['bob\u0000@example.com', 'control'],
    ['bob@example.com\n', 'control'],
    ['bob\u0085@example.com', 'control'],
    ['=?utf-8?q?bob?=@example.com', 'encoded_word'],
    ['=?UTF-8?B?Ym9i?=@example.com', 'encoded_word'],
    ['user@[1.2.3.4]', 'ip_literal'],
    ['user@[IPv6:2001:db8::1]', 'ip_literal'],
    ['user@1.2.3.4', 'ip_literal'],
    ['böb@example.com', 'non_ascii_local'],
    ['ＢＯＢ@example.com', 'non_ascii_local'],
    ['bob @example.com', 'space'],
    ['bob', 'not_an_address'],
    ['@example.com', 'not_an_address'],
    ['a..b@example.com', 'not_an_address'],
    ['.bob@example.com', 'not_an_address'],
    ['bob@ex@example.com', 'not_an_address'],
    ['bob@', 'domain'],
    ['bob@example', 'domain'],
    ['bob@localhost', 'domain'],
    ['bob@example.com.', 'domain'],
    ['bob@-example.com', 'domain'],
    ['bob@exa_mple.com', 'domain'],
    ['bob@xn--zz.com', 'domain'],
    ['bob@example.c0m', 'domain'],
    [`${'a'.repeat(65)}@example.com`, 'too_long'],
    [`bobbobbob1@${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.com`, 'too_long'],
  ])('refuses %j: %s', (typed, problem) => {
    expect(canonicalEmail(typed)).toEqual({ ok: false, problem });
  });

  const localPart = fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,20}[a-z0-9]$/).filter((s) => !s.includes('..'));
  const domains = fc.constantFrom('example.com', 'örnek.com.tr', 'straße.de', 'bücher.example', 'mañana.com', 'şirket.com.tr', 'ıspanak.org', 'пример.рф', '例え.jp');
  const address = fc.tuple(localPart, domains).map(([l, d]) => `${l}@${d}`);
  /** Every Cf and Cc code point there is (soft hyphen, zero-width characters, bidi controls, tags, C0 and C1). */
  const CF_AND_CC = Array.from({ length: 0x110000 }, (_, cp) => cp)
    .filter((cp) => (cp < 0xd800 || cp > 0xdfff) && /[\p{Cf}\p{Cc}]/u.test(String.fromCodePoint(cp)))
    .map((cp) => String.fromCodePoint(cp));
  const invisibleOrControl = fc.constantFrom(...CF_AND_CC);

  it('refuses any address with a format (Cf) or control (Cc) character inserted anywhere', () => {
    fc.assert(
      fc.property(address, invisibleOrControl, fc.nat(), (typed, inserted, at) => {
        const i = at % (typed.length + 1);
        const result = canonicalEmail(typed.slice(0, i) + inserted + typed.slice(i));
        expect(result.ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives one form for every case of the domain and for its Unicode and punycode spellings', () => {
    // Only letters whose capital is a case variant of them: `ı` capitalises to `I` and `ß` to `SS`, which are other domains.
    const upper = (c: string) => (c.toUpperCase().toLowerCase() === c ? c.toUpperCase() : c);
    const flipCase = (text: string, mask: number[]) => [...text].map((c, i) => ((mask[i % mask.length] ?? 0) % 2 ? upper(c) : c)).join('');
    fc.assert(
      fc.property(localPart, domains, fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (local, domain, mask) => {
        const canonical = canonicalEmail(`${local}@${domain}`);
        if (!canonical.ok) throw new Error(`${local}@${domain} refused: ${canonical.problem}`);
        const punycode = canonical.email.slice(canonical.email.indexOf('@') + 1);
        expect(canonicalEmail(`${flipCase(local, mask)}@${flipCase(domain, mask)}`)).toEqual(canonical);
        expect(canonicalEmail(`${local}@${flipCase(punycode, mask)}`)).toEqual(canonical);
      }),
    );
  });

  it('is idempotent: a canonical form is its own canonical form', () => {
    fc.assert(
      fc.property(fc.oneof(address, fc.emailAddress(), fc.string()), (typed) => {
        const once = canonicalEmail(typed);
        if (once.ok) expect(canonicalEmail(once.email)).toEqual(once);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('emailKey', () => {
  it('counts every spelling of one mailbox under one key', () => {
    expect(new Set(['bob@example.com', 'BOB@EXAMPLE.com', 'Bob@Example.Com ']).size).toBe(3);
    expect(new Set(['bob@example.com', 'BOB@EXAMPLE.com', 'Bob@Example.Com '].map(emailKey))).toEqual(new Set(['bob@example.com']));
    expect(emailKey('ali@ÖRNEK.com')).toBe(emailKey('ali@xn--rnek-4qa.com'));
  });
});

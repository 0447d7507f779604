import fc from 'fast-check';
import {
  assertValidClientName,
  assertValidRedirectUri,
  ClientValidationError,
  confusable,
  matchesRegisteredRedirectUri,
  mixedScriptWord,
  parseClientScopes,
  policyOrigin,
} from './client-rules';

/** The platform's name of these tests: the default of PLATFORM_NAME. */
const PLATFORM = 'Startup Platform';

/** Control (Cc) and format (Cf) characters, drawn from the whole of Unicode. */
const CONTROL_OR_FORMAT = /^(?:\p{Cc}|\p{Cf})$/u;
const controlOrFormat = fc.oneof(
  fc.constantFrom('\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009b', '\u00ad', '\u061c', '\u200b', '\u200c', '\u200d', '\u200e', '\u200f'),
  fc.constantFrom('\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2060', '\u2066', '\u2067', '\u2068', '\u2069', '\ufeff', '\ufff9', '\u{e0001}', '\u{e0041}'),
  fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)).filter((c) => CONTROL_OR_FORMAT.test(c)),
);

/** The host grammar, written out again here so that the test does not trust the code's own regexes. */
function hostFollowsGrammar(host: string): boolean {
  if (/^\[[0-9a-f:.]+\]$/.test(host)) return true;
  const octets = host.split('.');
  if (octets.length === 4 && octets.every((o) => /^(0|[1-9]\d{0,2})$/.test(o) && Number(o) <= 255)) return true;
  return host.length <= 253 && host.split('.').every((label) => /^[a-z0-9-]{1,63}$/.test(label) && !label.startsWith('-') && !label.endsWith('-'));
}

describe('client registration rules', () => {
  describe('assertValidRedirectUri', () => {
    const publicUrl = 'https://auth.example';
    const ruleOf = (uri: string, base = publicUrl) => {
      try {
        assertValidRedirectUri(uri, base);
        return 'accepted';
      } catch (error) {
        if (!(error instanceof ClientValidationError)) throw error;
        return error.rule;
      }
    };

    it.each([
      'https://app.example/cb',
      'https://app.example/',
      'https://app.example/cb?tenant=a%20b',
      'https://app.example:8443/cb',
      'https://xn--80ak6aa92e.example/cb',
      'https://203.0.113.7/cb',
      'https://[2001:db8::1]/cb',
      'https://intranet/cb',
      'http://localhost:3000/cb',
      'http://127.0.0.1:8080/cb',
      'http://[::1]:8080/cb',
      'http://127.0.0.1/cb',
    ])('accepts %s', (uri) => {
      expect(() => assertValidRedirectUri(uri, publicUrl)).not.toThrow();
    });

    it('accepts plain http on the service\'s own origin when PUBLIC_URL is plain http', () => {
      expect(() => assertValidRedirectUri('http://dev.internal:3000/docs/oauth2-redirect.html', 'http://dev.internal:3000')).not.toThrow();
      expect(() => assertValidRedirectUri('http://other.internal:3000/cb', 'http://dev.internal:3000')).toThrow(ClientValidationError);
    });

    it.each([
      ['/cb', 'redirect_uri_not_absolute', 'not an absolute URL'],
      ['https://app.example/cb#frag', 'redirect_uri_fragment', 'must not contain a fragment'],
      ['https://app.example/cb#', 'redirect_uri_fragment', 'must not contain a fragment'],
      ['https://user:pw@app.example/cb', 'redirect_uri_credentials', 'must not contain credentials'],
      ['https://user@app.example/cb', 'redirect_uri_credentials', 'must not contain credentials'],
      ['https://@app.example/cb', 'redirect_uri_credentials', 'must not contain credentials'],
      ['http://app.example/cb', 'redirect_uri_http', 'http is allowed only for localhost'],
      ['com.example.app:/cb', 'redirect_uri_scheme', 'the scheme must be https'],
      ['javascript:alert(1)', 'redirect_uri_scheme', 'the scheme must be https'],
      ['ftp://app.example/cb', 'redirect_uri_scheme', 'the scheme must be https'],
      [`https://app.example/${'a'.repeat(2000)}`, 'redirect_uri_too_long', 'longer than 2000 characters'],
      ['https://app.example/a b', 'redirect_uri_characters', 'U+0020 is not allowed'],
      ['https://app.example/\u0000', 'redirect_uri_characters', 'U+0000 is not allowed'],
      ['https://app.example/cb\t', 'redirect_uri_characters', 'U+0009 is not allowed'],
      ['https://app.example/\u202ebc', 'redirect_uri_characters', 'U+202E is not allowed'],
      ['https://bücher.example/cb', 'redirect_uri_characters', 'U+00FC is not allowed'],
      ['https://app.example/ç', 'redirect_uri_characters', 'U+00E7 is not allowed'],
      ['https://*.app.example/cb', 'redirect_uri_forbidden_character', 'must not contain "*"'],
      ['https://app.example/cb*', 'redirect_uri_forbidden_character', 'must not contain "*"'],
      ['https://app.example;script-src/cb', 'redirect_uri_forbidden_character', 'must not contain ";"'],
      ['https://app.example/cb;x', 'redirect_uri_forbidden_character', 'must not contain ";"'],
      ['https://app.example,evil.example/cb', 'redirect_uri_forbidden_character', 'must not contain ","'],
      ['https://app.example\\@evil.example/cb', 'redirect_uri_forbidden_character', 'must not contain "\\"'],
      ['https:app.example/cb', 'redirect_uri_slashes', 'write // after the scheme'],
      ['https:/app.example/cb', 'redirect_uri_slashes', 'write // after the scheme'],
      ['https://app_1.example/cb', 'redirect_uri_host', 'the host must be a DNS name'],
      ['https://-app.example/cb', 'redirect_uri_host', 'the host must be a DNS name'],
      ['https://app.example./cb', 'redirect_uri_host', 'the host must be a DNS name'],
      ['https://a$b.example/cb', 'redirect_uri_host', 'the host must be a DNS name'],
      ['https://app.example', 'redirect_uri_not_canonical', 'write it as https://app.example/'],
      ['https://APP.example/cb', 'redirect_uri_not_canonical', 'write it as https://app.example/cb'],
      ['HTTPS://app.example/cb', 'redirect_uri_not_canonical', 'write it as https://app.example/cb'],
      ['https://app.example:443/cb', 'redirect_uri_not_canonical', 'write it as https://app.example/cb'],
      ['https:///app.example/cb', 'redirect_uri_not_canonical', 'write it as https://app.example/cb'],
      ['https://app.example/a/../cb', 'redirect_uri_not_canonical', 'write it as https://app.example/cb'],
      ['https://app.example/<script>', 'redirect_uri_not_canonical', 'write it as https://app.example/%3Cscript%3E'],
      ['https://0x7f.1/cb', 'redirect_uri_not_canonical', 'write it as https://127.0.0.1/cb'],
      ['http://[0:0::1]:8080/cb', 'redirect_uri_not_canonical', 'write it as http://[::1]:8080/cb'],
    ])('refuses %j as %s, with a message that says why', (uri, rule, message) => {
      expect(ruleOf(uri)).toBe(rule);
      expect(() => assertValidRedirectUri(uri, publicUrl)).toThrow(message);
    });

    it('names the form to write when the URI is not in the parser\'s form', () => {
      const error = (() => {
        try {
          assertValidRedirectUri('https://App.Example:443', publicUrl);
        } catch (e) {
          return e as ClientValidationError;
        }
      })();
      expect(error).toMatchObject({ rule: 'redirect_uri_not_canonical', canonical: 'https://app.example/' });
    });

    it('never shows a control character of a refused URI raw in its message', () => {
      expect(() => assertValidRedirectUri('https://app.example/\u001b[31m', publicUrl)).toThrow('Invalid redirect URI "https://app.example/?[31m"');
    });

    // Any URI that is accepted is exactly what the WHATWG parser makes of it, on a host of the grammar.
    const built = fc
      .tuple(
        fc.constantFrom('https://', 'http://', 'HTTPS://', 'https:', 'https:/'),
        fc.oneof(fc.domain(), fc.ipV4(), fc.ipV6().map((ip) => `[${ip}]`), fc.constantFrom('localhost', '127.0.0.1', '[::1]', 'auth.example')),
        fc.option(fc.integer({ min: 0, max: 70000 }).map((port) => `:${port}`), { nil: '' }),
        fc.webPath(),
        fc.option(fc.webQueryParameters().map((q) => `?${q}`), { nil: '' }),
        fc.option(fc.webFragments().map((f) => `#${f}`), { freq: 5, nil: '' }),
      )
      .map((parts) => parts.join(''));
    const uriLike = fc.oneof(
      built,
      // The same, as the parser writes it: these should mostly be accepted.
      { arbitrary: built.map((uri) => (URL.canParse(uri) ? new URL(uri).href : uri)), weight: 6 },
      fc.webUrl({ withQueryParameters: true, withFragments: true, validSchemes: ['https', 'http'] }),
      fc.webUrl({ validSchemes: ['https'] }).map((u) => u.toUpperCase()),
      fc
        .tuple(
          fc.constantFrom('https://', 'http://', 'https:', 'HTTPS://', 'http://127.0.0.1', 'http://[::1]', 'https://[', 'ftp://', ''),
          fc.string({ unit: fc.constantFrom(...'aZ09.-_:/?#[]@!$&\'()*+,;=%\\ \t\u0000\u202eé'.split('')), maxLength: 30 }),
        )
        .map(([a, b]) => a + b),
      fc.string({ maxLength: 40 }),
    );

    it('accepts only URIs that parse back to the same string and whose host follows the grammar', () => {
      let accepted = 0;
      fc.assert(
        fc.property(uriLike, fc.constantFrom(publicUrl, 'http://localhost:3000'), (uri, base) => {
          if (ruleOf(uri, base) !== 'accepted') return;
          accepted += 1;
          const url = new URL(uri);
          expect(url.href).toBe(uri);
          expect(hostFollowsGrammar(url.hostname)).toBe(true);
          expect(uri).not.toMatch(/[*;,\\#\s]/);
          expect(url.username + url.password).toBe('');
          expect(url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) || url.origin === base).toBe(true);
        }),
        { numRuns: 3000 },
      );
      // The property says something only if the generators reach accepted URIs often enough.
      expect(accepted).toBeGreaterThan(150);
    });
  });

  describe('matchesRegisteredRedirectUri', () => {
    const registered = ['http://127.0.0.1:1234/cb', 'http://[::1]/native?x=1', 'http://localhost:1234/cb', 'https://app.example:8443/cb'];

    it.each([
      'http://127.0.0.1:1234/cb',
      'http://127.0.0.1:5555/cb',
      'http://127.0.0.1/cb',
      'http://127.0.0.1:80/cb',
      'http://[::1]:49152/native?x=1',
      'http://[::1]:80/native?x=1',
      'http://[::1]/native?x=1',
      'https://app.example:8443/cb',
    ])('matches %s', (uri) => {
      expect(matchesRegisteredRedirectUri(registered, uri)).toBe(true);
    });

    it.each([
      ['another path', 'http://127.0.0.1:5555/cb2'],
      ['another query', 'http://127.0.0.1:5555/cb?x=1'],
      ['https on the loopback address', 'https://127.0.0.1:5555/cb'],
      ['another loopback address', 'http://127.0.0.2:5555/cb'],
      ['localhost, which is no IP literal', 'http://localhost:5555/cb'],
      ['the other loopback literal', 'http://[::1]:5555/cb'],
      ['a fragment', 'http://127.0.0.1:5555/cb#x'],
      ['user info', 'http://u@127.0.0.1:5555/cb'],
      ['a form the parser rewrites', 'http://127.0.0.1:5555/x/../cb'],
      ['the default port with a leading zero', 'http://127.0.0.1:080/cb'],
      ['the default port on another path', 'http://127.0.0.1:80/cb2'],
      ['an upper-case scheme', 'HTTP://127.0.0.1:5555/cb'],
      ['a port on a host that is not loopback', 'https://app.example:9443/cb'],
      ['the default port spelled out', 'https://app.example:443/cb'],
    ])('refuses %s', (_case, uri) => {
      expect(matchesRegisteredRedirectUri(registered, uri)).toBe(false);
    });

    it('matches, for any port, exactly the registered loopback URI with that port', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 65535 }), (port) => {
          expect(matchesRegisteredRedirectUri(registered, `http://127.0.0.1:${port}/cb`)).toBe(true);
          expect(matchesRegisteredRedirectUri(registered, `http://localhost:${port}/cb`)).toBe(port === 1234);
          expect(matchesRegisteredRedirectUri(registered, `https://app.example:${port}/cb`)).toBe(port === 8443);
        }),
      );
    });
  });

  describe('policyOrigin', () => {
    it('gives the origin of a well-formed URI', () => {
      expect(policyOrigin('https://app.example/cb?x=1')).toBe('https://app.example');
      expect(policyOrigin('http://[::1]:5555/cb')).toBe('http://[::1]:5555');
    });

    it.each(['https://app.example;script-src/cb', 'https://app.example,evil.example/cb', "https://a'b.example/cb", 'https://a*.example/', 'javascript:alert(1)', 'not a url'])(
      'gives nothing for %j, which could write its own sources or directives into a policy',
      (uri) => {
        expect(policyOrigin(uri)).toBeUndefined();
      },
    );
  });

  describe('parseClientScopes', () => {
    it('sorts, folds repeats and accepts commas', () => {
      expect(parseClientScopes('read:startups profile profile')).toEqual(['profile', 'read:startups']);
      expect(parseClientScopes('profile,read:startups')).toEqual(['profile', 'read:startups']);
    });

    it('refuses unknown and empty scope lists', () => {
      expect(() => parseClientScopes('profile admin')).toThrow('unknown scope "admin"');
      expect(() => parseClientScopes('  ')).toThrow('give at least one');
    });
  });

  describe('assertValidClientName', () => {
    it('trims names and refuses empty or over-long ones', () => {
      expect(assertValidClientName('  Acme  ', PLATFORM)).toBe('Acme');
      expect(assertValidClientName('x'.repeat(200), PLATFORM)).toBe('x'.repeat(200));
      expect(assertValidClientName('Kitap Kurdu — ağ uygulaması', PLATFORM)).toBe('Kitap Kurdu — ağ uygulaması');
      expect(assertValidClientName('مكتبة', PLATFORM)).toBe('مكتبة');
      expect(() => assertValidClientName(' ', PLATFORM)).toThrow(expect.objectContaining({ rule: 'name_length' }));
      expect(() => assertValidClientName('x'.repeat(201), PLATFORM)).toThrow(expect.objectContaining({ rule: 'name_length' }));
    });

    it.each([
      ['a control character', 'Acme\u0007', 'U+0007'],
      ['a C1 control character', 'Acme\u0085', 'U+0085'],
      ['a right-to-left override', 'Acme \u202eelgooG', 'U+202E'],
      ['a left-to-right isolate', 'Acme \u2066Google\u2069', 'U+2066'],
      ['a zero-width space', 'Goo\u200bgle', 'U+200B'],
      ['a zero-width joiner', 'Goo\u200dgle', 'U+200D'],
      ['a byte order mark', 'Goo\ufeffgle', 'U+FEFF'],
      ['a soft hyphen', 'Goo\u00adgle', 'U+00AD'],
      ['a tag character', 'Acme\u{e0041}', 'U+E0041'],
      ['a trailing newline', 'Acme\n', 'U+000A'],
    ])('refuses a name with %s, naming it', (_case, name, codePoint) => {
      expect(() => assertValidClientName(name, PLATFORM)).toThrow(expect.objectContaining({ rule: 'name_characters' }));
      expect(() => assertValidClientName(name, PLATFORM)).toThrow(`Invalid name: ${codePoint} is a control or invisible formatting character`);
    });

    it('refuses any name holding a control or format character, wherever it stands', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 90 }), controlOrFormat, fc.string({ unit: 'binary', maxLength: 90 }), (before, bad, after) => {
          const name = `Acme ${before}${bad}${after}`;
          fc.pre(name.length <= 200);
          expect(() => assertValidClientName(name, PLATFORM)).toThrow(expect.objectContaining({ rule: 'name_characters' }));
        }),
        { numRuns: 2000 },
      );
    });
  });

  describe('look-alike names (SECURITY.md, "Look-alike and reordered application names")', () => {
    it.each([
      ['the name itself', 'Startup Platform'],
      ['another case', 'sTARTUP pLATFORM'],
      ['a Cyrillic о', 'Startup Platf\u043erm'],
      ['full-width letters', '\uff33\uff54\uff41\uff52\uff54\uff55\uff50 \uff30\uff4c\uff41\uff54\uff46\uff4f\uff52\uff4d'],
      ['rn for m', 'Startup Platforrn'],
      ['1 for l and 0 for o', 'Startup P1atf0rm'],
      ['a capital I for l', 'Startup PIatform'],
      ['spaces doubled', '  Startup   Platform '],
      ['a Greek Ρ and Cyrillic а', 'Startup \u03a1l\u0430tform'],
      ['a Braille blank for the space', 'Startup\u2800Platform'],
      ['a Hangul filler for the space', 'Startup\u3164Platform'],
      ['a halfwidth Hangul filler for the space', 'Startup\uffa0Platform'],
      ['a variation selector inside', 'Startup\ufe0f Platform'],
      ['a combining grapheme joiner inside', 'Start\u034fup Platform'],
    ])('refuses the platform\'s own name written with %s', (_case, name) => {
      expect(() => assertValidClientName(name, PLATFORM)).toThrow(expect.objectContaining({ rule: 'name_lookalike' }));
      expect(() => assertValidClientName(name, PLATFORM)).toThrow('looks like the platform\'s own name "Startup Platform"');
    });

    it('compares with the configured name, in its own script', () => {
      expect(() => assertValidClientName('GİRİŞİM AĞI', 'Girişim Ağı')).toThrow(expect.objectContaining({ rule: 'name_lookalike' }));
      expect(() => assertValidClientName('girişim ağı', 'Girişim Ağı')).toThrow(expect.objectContaining({ rule: 'name_lookalike' }));
      expect(assertValidClientName('Startup Platform', 'Girişim Ağı')).toBe('Startup Platform');
      expect(assertValidClientName('Startup Platform Tools', PLATFORM)).toBe('Startup Platform Tools');
    });

    it.each([
      ['Latin with Cyrillic о', 'G\u043e\u043egle', 'Latin and Cyrillic'],
      ['Latin with Cyrillic а', 'P\u0430yPal Checkout', 'Latin and Cyrillic'],
      ['Latin with a Greek Α', '\u0391pple Store', 'Greek and Latin'],
      ['Cyrillic with a Latin e', '\u042f\u043d\u0434e\u043a\u0441', 'Cyrillic and Latin'],
    ])('refuses a word mixing scripts: %s', (_case, name, scripts) => {
      expect(() => assertValidClientName(name, PLATFORM)).toThrow(expect.objectContaining({ rule: 'name_mixed_scripts' }));
      expect(() => assertValidClientName(name, PLATFORM)).toThrow(`mixes ${scripts} letters`);
    });

    it.each([
      'Girişim Ağı Öğrenci',
      'Яндекс Карты',
      'Ελληνικά Νέα',
      '株式会社テスト',
      '创业平台',
      'Moscow Москва',
      'ソニー銀行 Online',
      'LINEマンガ',
      '서울 Bank 2.0',
      'مكتبة الكتب',
      'ספרייה',
      'हिन्दी समाचार',
      'Café Crème — v2',
      'Ünlü İçerik',
      '\u2764\ufe0f Health',
      '\u2800 Braille Notes',
    ])('accepts the honest name %s', (name) => {
      expect(assertValidClientName(name, PLATFORM)).toBe(name);
    });

    /** Letters of one script each, so that a word drawn from one of them is honest. */
    const ALPHABETS: Record<string, string> = {
      Latin: 'abcdefghijklmnopqrstuvwxyzçğıöşüâéèñßØ',
      Cyrillic: 'абвгдеёжзийклмнопрстуфхцчшщъыьэюяЖЯ',
      Greek: 'αβγδεζηθικλμνξοπρστυφχψωάέΩ',
      Armenian: 'աբգդեզէըթժիլխ',
      Georgian: 'აბგდევზთიკლმნ',
      Arabic: 'ابتثجحخدذرزسشصضطظعغفقكلمنهوي',
      Hebrew: 'אבגדהוזחטיכלמנסעפצקרשת',
      Devanagari: 'अआइईउऊएऐओऔकखगघचछजझ',
      Thai: 'กขคงจฉชซญดตถทนบปผพฟมยรลวศสหอฮ',
      Hangul: '가나다라마바사아자차카타파하',
      Japanese: 'あいうえおかきくけこアイウエオカキクケコ日本語会社',
      Chinese: '创业平台中国人民大学科技',
    };
    const honestWord = fc
      .constantFrom(...Object.values(ALPHABETS))
      .chain((letters) => fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 10 }))
      .map((chars) => chars.join(''));
    const separator = fc.constantFrom(' ', ' - ', ', ', ' & ', ' 2 ', ': ', ' (', ') ');
    const honestName = fc.tuple(fc.array(fc.tuple(honestWord, separator), { maxLength: 5 }), honestWord).map(([pairs, last]) => pairs.map(([w, sep]) => w + sep).join('') + last);

    it('accepts every honest name, one script per word, in many scripts', () => {
      fc.assert(
        fc.property(honestName, (name) => {
          fc.pre(!confusable(name, PLATFORM));
          expect(assertValidClientName(name, PLATFORM)).toBe(name.trim());
        }),
        { numRuns: 3000 },
      );
    });

    /** Latin letters and the Cyrillic or Greek letters that look like them. */
    const LOOKALIKES: Record<string, string[]> = {
      a: ['\u0430', '\u03b1'], c: ['\u0441', '\u03f2'], e: ['\u0435'], o: ['\u043e', '\u03bf'], p: ['\u0440', '\u03c1'],
      x: ['\u0445', '\u03c7'], y: ['\u0443'], i: ['\u0456', '\u03b9'], j: ['\u0458'], s: ['\u0455'],
    };
    it('refuses every Latin word with one letter swapped for a Cyrillic or Greek look-alike', () => {
      const word = fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), { minLength: 2, maxLength: 12 }).map((c) => c.join(''));
      fc.assert(
        fc.property(word, fc.nat(), fc.nat(), honestName, (latin, at, pick, rest) => {
          const positions = [...latin].map((c, i) => (LOOKALIKES[c] ? i : -1)).filter((i) => i >= 0);
          fc.pre(positions.length > 0 && [...latin].some((c, i) => i !== positions[at % positions.length] && /[a-z]/.test(c)));
          const i = positions[at % positions.length];
          const swaps = LOOKALIKES[latin[i]];
          const spoofed = latin.slice(0, i) + swaps[pick % swaps.length] + latin.slice(i + 1);
          fc.pre(mixedScriptWord(spoofed) !== null || /^[\u0400-\u04ff\u0370-\u03ff]+$/.test(spoofed) === false);
          expect(() => assertValidClientName(`${rest} ${spoofed}`, PLATFORM)).toThrow(ClientValidationError);
        }),
        { numRuns: 3000 },
      );
    });

    it('refuses the platform\'s name with any case and any confusable letters', () => {
      const SWAPS: Record<string, string[]> = { o: ['\u043e', '0', '\u03bf'], a: ['\u0430'], l: ['1', 'I', '\u04cf'], m: ['rn'], p: ['\u0440'], t: ['\u0442'], S: ['\u0405'], P: ['\u0420', '\u03a1'] };
      fc.assert(
        fc.property(fc.array(fc.nat(), { minLength: PLATFORM.length, maxLength: PLATFORM.length }), (choices) => {
          const name = [...PLATFORM]
            .map((c, i) => {
              const n = choices[i] % 4;
              if (n === 0 && SWAPS[c]) return SWAPS[c][choices[i] % SWAPS[c].length];
              return n === 1 ? c.toUpperCase() : n === 2 ? c.toLowerCase() : c;
            })
            .join('');
          expect(() => assertValidClientName(name, PLATFORM)).toThrow(expect.objectContaining({ rule: 'name_lookalike' }));
        }),
        { numRuns: 2000 },
      );
    });
  });
});

import fs from 'node:fs';
import fc from 'fast-check';
import { QueryFailedError } from 'typeorm';
import { SENSITIVE_PARAMETERS, redactQuery, redactText, redactUrl, rootLogger } from './logger';

describe('log redaction', () => {
  it('masks every sensitive parameter of a URL, whatever its spelling, and leaves the rest', () => {
    expect(redactUrl('/oauth/authorize?client_id=app&login_hint=ada%40example.com&nonce=n1&state=s&code=c&scope=openid')).toBe(
      '/oauth/authorize?client_id=app&login_hint=[REDACTED]&nonce=[REDACTED]&state=[REDACTED]&code=[REDACTED]&scope=openid',
    );
    expect(redactUrl('/oauth/logout?id%5Ftoken%5Fhint=eyJ.x.y&ID_TOKEN_HINT=a&id_token_hint=b&id_token_hint=c')).toBe(
      '/oauth/logout?id%5Ftoken%5Fhint=[REDACTED]&ID_TOKEN_HINT=[REDACTED]&id_token_hint=[REDACTED]&id_token_hint=[REDACTED]',
    );
    expect(redactUrl('/device?user_code=ABCD-EFGH&device_code=d#access_token=t&x=1')).toBe('/device?user_code=[REDACTED]&device_code=[REDACTED]#access_token=[REDACTED]&x=1');
    expect(redactUrl('/oauth/par?request_uri=urn%3Aietf%3Aparams&client_id=a')).toBe('/oauth/par?request_uri=[REDACTED]&client_id=a');
    expect(redactUrl('/health')).toBe('/health');
  });

  it('masks a form body and free text', () => {
    expect(redactQuery('grant_type=refresh_token&refresh_token=sp_rt_x&client_secret=sp_cs_y')).toBe('grant_type=refresh_token&refresh_token=[REDACTED]&client_secret=[REDACTED]');
    expect(redactText('failed GET /oauth/authorize?nonce=abc&x=1 (password=hunter2)')).toBe('failed GET /oauth/authorize?nonce=[REDACTED]&x=1 (password=[REDACTED])');
    expect(redactText('no pairs here')).toBe('no pairs here');
  });
});

describe('log redaction of secrets nested in URLs and shaped as secrets (SECURITY.md "Secrets in logs")', () => {
  it('masks a user code inside return_to, encoded once or twice, and keeps the path', () => {
    expect(redactUrl('/oauth/sign-in?return_to=%2Fdevice%2Fconsent%3Fuser_code%3DRXLJ-LMCF')).toBe('/oauth/sign-in?return_to=%2Fdevice%2Fconsent%3Fuser_code%3D[REDACTED]');
    expect(redactUrl('/oauth/sign-in?return_to=%252Fdevice%252Fconsent%253Fuser_code%253Drxljlmcf&lang=en')).not.toMatch(/rxlj/i);
    expect(redactUrl('/oauth/sign-in?return_to=/device/consent?user_code=RXLJ-LMCF')).toBe('/oauth/sign-in?return_to=/device/consent?user_code=[REDACTED]');
    expect(redactUrl('/device?code=RXLJ-LMCF&next=%2Fdevice%3Fx%3DRXLJLMCF')).not.toMatch(/RXLJ/);
  });

  it('masks API keys in the query string, mail-link tokens, and secrets by their prefix', () => {
    expect(redactUrl('/api/public/v1/industries?api_key=sp_key_abc&APIKEY=k2&apikey=k3')).toBe('/api/public/v1/industries?api_key=[REDACTED]&APIKEY=[REDACTED]&apikey=[REDACTED]');
    expect(redactUrl('/account/confirm-email?token=t0k3n')).toBe('/account/confirm-email?token=[REDACTED]');
    expect(redactUrl('/account/reset-password?token=t0k3n&lang=tr')).toBe('/account/reset-password?token=[REDACTED]&lang=tr');
    expect(redactUrl('/x?q=sp_rt_AbC-_9&b=eyJhbGciOi.eyJzdWIiOi.sig')).toBe('/x?q=[REDACTED]&b=[REDACTED]');
    // A registration access token (RFC 7592) sent where it does not belong.
    expect(redactUrl('/oauth/register/sp_client_x?t=sp_rat_AbC-_9')).toBe('/oauth/register/sp_client_x?t=[REDACTED]');
    expect(redactText('refused sp_key_0123abcd for a user code of BCDF-GHJK')).toBe('refused [REDACTED] for a user code of [REDACTED]');
    // A mail link's token and a device code, wherever they are: not only under a parameter named `token`.
    expect(redactUrl('/account/reset-password?t=sp_mt_AbC-_9')).toBe('/account/reset-password?t=[REDACTED]');
    expect(redactText('link /account/confirm-email/sp_mt_AbC-_9 refused; device sp_dc_Xy_1 polled')).toBe('link /account/confirm-email/[REDACTED] refused; device [REDACTED] polled');
  });

  it('leaves honest URLs as they are', () => {
    for (const url of ['/api/public/v1/startups?page=2&per_page=20&industry=fintech', '/oauth/authorize?client_id=sp_client_x&scope=openid%20profile&redirect_uri=https%3A%2F%2Fapp.example%2Fcb', '/health']) {
      expect(redactUrl(url)).toBe(url);
    }
  });

  const USER_CODE_LETTERS = 'BCDFGHJKLMNPQRSTVWXZ';
  const userCode = fc
    .tuple(fc.array(fc.constantFrom(...USER_CODE_LETTERS), { minLength: 8, maxLength: 8 }), fc.boolean(), fc.boolean())
    .map(([letters, hyphen, lower]) => {
      const code = hyphen ? `${letters.slice(0, 4).join('')}-${letters.slice(4).join('')}` : letters.join('');
      return lower ? code.toLowerCase() : code;
    });
  /** A secret by its name: a marker under one of the sensitive parameters, spelt in any case. */
  const named = fc
    .tuple(fc.constantFrom(...SENSITIVE_PARAMETERS), fc.array(fc.constantFrom(...'0123456789abcdef'), { minLength: 12, maxLength: 12 }).map((h) => h.join('')), fc.boolean())
    .map(([name, hex, upper]) => ({ pair: `${upper ? name.toUpperCase() : name}=LEAK${hex}`, marker: `LEAK${hex}` }));
  const shaped = userCode.map((code) => ({ pair: `user_code=${code}`, marker: code.replace('-', '') }));
  /** A secret by its shape alone, under an innocent name. */
  const bare = userCode.map((code) => ({ pair: `q=${code}`, marker: code.replace('-', '') }));
  const innocent = fc.constantFrom('return_to', 'next', 'redirect', 'continue', 'url', 'r', 'target');
  const path = fc.constantFrom('/device/consent', '/oauth/sign-in', '/account/confirm-email', 'https://app.example/cb', '');
  /** How one level of nesting writes the inner URL: as is, encoded once, or encoded twice. */
  const encoding = fc.constantFrom(0, 1, 2);
  const level = fc.record({ name: innocent, path, encoding, before: fc.boolean() });

  function nest(secret: string, levels: { name: string; path: string; encoding: number; before: boolean }[]): string {
    let url = `/device/consent?${secret}`;
    for (const { name, path: at, encoding: times, before } of levels) {
      let value = url;
      for (let i = 0; i < times; i++) value = encodeURIComponent(value);
      url = before ? `${at || '/p'}?lang=en&${name}=${value}` : `${at || '/p'}?${name}=${value}&lang=tr`;
    }
    return url;
  }

  /** Every decoding of a line, so that a secret hidden under any number of encodings is found. */
  function decodings(line: string): string[] {
    const out = [line];
    for (let i = 0; i < 8; i++) {
      let next: string;
      try {
        next = decodeURIComponent(out[out.length - 1].replace(/\+/g, ' '));
      } catch {
        break;
      }
      if (next === out[out.length - 1]) break;
      out.push(next);
    }
    return out;
  }
  const survives = (line: string, marker: string) => decodings(line).some((form) => form.toUpperCase().replace(/-/g, '').includes(marker.toUpperCase()));

  it('no secret survives in a URL, however deep it is nested and however encoded', () => {
    fc.assert(
      fc.property(fc.oneof(named, shaped, bare), fc.array(level, { minLength: 0, maxLength: 4 }), ({ pair, marker }, levels) => {
        const url = nest(pair, levels);
        expect(survives(redactUrl(url), marker)).toBe(false);
        expect(survives(redactText(`GET ${url} failed`), marker)).toBe(false);
        expect(survives(redactQuery(url.slice(url.indexOf('?') + 1)), marker)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('logFormatFor (docs/configuration-and-deployment.md, Logs)', () => {
  it('writes lines for people in development only; JSON in production and in tests', () => {
    const { logFormatFor } = jest.requireActual('./logger') as typeof import('./logger');
    expect(logFormatFor('development')).toBe('pretty');
    expect(logFormatFor('production')).toBe('json');
    expect(logFormatFor('test')).toBe('json');
  });
});

describe('errors in the log (SECURITY.md "Secrets in logs")', () => {
  /** What the root logger writes for `log`, as the lines on its standard output. */
  function linesOf(log: (logger: ReturnType<typeof rootLogger>) => void): string {
    const written: string[] = [];
    const write = jest.spyOn(fs, 'writeSync').mockImplementation((_fd: number, data: unknown) => {
      written.push(String(data));
      return String(data).length;
    });
    try {
      log(rootLogger('info'));
    } finally {
      write.mockRestore();
    }
    return written.join('');
  }

  it('writes a failed statement as its type, code, message and stack, masked, never its SQL or its parameters', () => {
    const mail = 'Reset: https://id.example/account/reset-password?token=sp_mt_Zz9secret';
    const failed = new QueryFailedError('INSERT INTO mail_outbox (recipient, text_body) VALUES ($1, $2)', ['ada@example.com', mail], Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }));
    (failed as { code?: string }).code = '57014';
    failed.message = `${failed.message} after GET /x?refresh_token=sp_rt_abc`;
    const lines = linesOf((log) => {
      log.error({ err: failed }, 'Unexpected error');
      log.error({ error: failed }, 'Unexpected error');
    });
    expect(lines).not.toMatch(/ada@example\.com|sp_mt_|sp_rt_abc|INSERT INTO|driverError|parameters/);
    const [first, second] = lines.trim().split('\n').map((line) => JSON.parse(line));
    for (const written of [first.err, second.error]) {
      expect(written).toEqual({ type: 'QueryFailedError', errorCode: '57014', message: expect.stringContaining('refresh_token=[REDACTED]'), stack: expect.any(String) });
    }
  });

  it('masks what an error’s cause says, too', () => {
    const error = new Error('refused', { cause: new Error('bad token sp_at_secret1') });
    const line = JSON.parse(linesOf((log) => log.error({ err: error }, 'Unexpected error')));
    expect(line.err.cause).toEqual({ type: 'Error', message: 'bad token [REDACTED]', stack: expect.not.stringContaining('sp_at_') });
  });
});

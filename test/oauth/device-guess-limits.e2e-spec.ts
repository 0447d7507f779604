import { Clock } from '../../src/common/clock';
import { http } from '../helpers/http';
import { BrowserSession, hiddenInputs, registerClient } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * The limits on guessing user codes (RFC 8628 §5.1; SECURITY.md, "Guessing user codes" and "Limits per
 * address"): an IPv6 address counts by its /64 and an IPv4-mapped address as its IPv4 address; and a
 * budget of wrong codes across all addresses, whose exhaustion answers every wrong code 429 (and leaves
 * its address no more guesses in its window) while a right code still passes. Time is the app's Clock.
 */
const MAX_GUESSES = 3;
const BUDGET = 5;
const WINDOW_SECONDS = 900;

describe('user-code guessing limits', () => {
  let t: TestApp;
  let clock: jest.SpyInstance;
  let now: number;
  let clientId: string;
  let browser: BrowserSession;
  let form: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'true', SIGN_IN_MAX_FAILURES: String(MAX_GUESSES), SIGN_IN_WINDOW: String(WINDOW_SECONDS), USER_CODE_GUESS_BUDGET: String(BUDGET) });
    now = Date.now();
    clock = jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => now);
    clientId = (await registerClient(t.app, { type: 'public', scopes: ['profile'], deviceFlow: true })).clientId;
    browser = new BrowserSession(t.url);
    form = hiddenInputs((await browser.get('/device')).text);
  });
  beforeEach(() => {
    // Each test in windows of its own: the counters of the one before have ended.
    now += (WINDOW_SECONDS + 1) * 1000;
  });
  afterAll(async () => {
    clock.mockRestore();
    await t.close();
  });

  async function userCode(): Promise<string> {
    const res = await http(t.url, '/oauth/device_authorization', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, scope: 'profile' }).toString(),
    });
    expect(res.status).toBe(200);
    return res.body.user_code as string;
  }

  let wrong = 0;
  /** A code that matches no pending authorization: of the alphabet, and never issued (issued codes are random). */
  const wrongCode = () => `ZZZZ-${'BCDFGHJKLMNPQRSTVWXZ'[Math.floor(wrong / 20) % 20]}${'BCDFGHJKLMNPQRSTVWXZ'[wrong++ % 20]}ZZ`;
  const guess = (code: string, ip: string) => browser.post('/device', { ...form, user_code: code }, { 'x-forwarded-for': ip });

  it('spends no guess of an address on a consent page another site made its browser open (an image, a link)', async () => {
    const code = await userCode();
    const visitor = '198.51.100.40';
    for (let i = 0; i <= MAX_GUESSES; i++) {
      const planted = wrongCode();
      const fetched = await http(t.url, `/device/consent?user_code=${planted}`, { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image', 'x-forwarded-for': visitor } });
      // Nothing looked up: the code's form, filled in, for the user to send.
      expect([fetched.status, fetched.headers.get('location')]).toEqual([303, `/device?user_code=${planted}`]);
    }
    // The visitor's own code still goes through.
    expect((await guess(code, visitor)).status).toBe(303);
    // From this site's own pages (the form's redirect), the page looks the code up as before: found, and
    // nobody signed in here, it sends to the sign-in page.
    const page = await http(t.url, `/device/consent?user_code=${code}`, { headers: { 'sec-fetch-site': 'same-origin', 'x-forwarded-for': visitor } });
    expect([page.status, page.headers.get('location')]).toEqual([303, expect.stringMatching(/^\/oauth\/sign-in\?return_to=/)]);
  });

  it('counts every address of one IPv6 /64 together, and another /64 apart', async () => {
    const code = await userCode();
    for (let i = 1; i <= MAX_GUESSES; i++) expect((await guess(wrongCode(), `2001:db8:aa:1::${i}`)).status).toBe(400);
    // Another address of the same /64, even the right code: the /64 has had its guesses.
    const refused = await guess(code, '2001:db8:aa:1:ffff:ffff:ffff:fffe');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The next /64 is another subscriber.
    expect((await guess(code, '2001:db8:aa:2::1')).status).toBe(303);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    const code = await userCode();
    for (let i = 0; i < MAX_GUESSES; i++) expect((await guess(wrongCode(), i % 2 ? '198.51.100.7' : '::ffff:198.51.100.7')).status).toBe(400);
    expect((await guess(code, '::ffff:c633:6407')).status).toBe(429);
    expect((await guess(code, '198.51.100.7')).status).toBe(429);
    expect((await guess(code, '198.51.100.8')).status).toBe(303);
  });

  it('past USER_CODE_GUESS_BUDGET wrong codes from all addresses, answers every wrong code 429 and still takes a right one', async () => {
    const code = await userCode();
    // Each from an address of its own, under every per-address limit.
    for (let i = 0; i < BUDGET; i++) expect((await guess(wrongCode(), `203.0.113.${i + 1}`)).status).toBe(400);
    const slowed = await guess(wrongCode(), '203.0.113.100');
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(slowed.text).toContain('Too many wrong codes');
    // That address has no guess left in its window, right or wrong.
    expect((await guess(code, '203.0.113.100')).status).toBe(429);
    // Every other wrong code, from fresh addresses, is slowed down too…
    for (let i = 0; i < 3; i++) expect((await guess(wrongCode(), `2001:db8:bb:${i}::1`)).status).toBe(429);
    // …while a user typing the right code passes, from an address that had a wrong guess before or not.
    expect((await guess(code, '203.0.113.1')).status).toBe(303);
    expect((await guess(code, '192.0.2.44')).status).toBe(303);
    // The budget's window ends: wrong codes are wrong codes again.
    now += (WINDOW_SECONDS + 1) * 1000;
    expect((await guess(wrongCode(), '203.0.113.200')).status).toBe(400);
  });
});

/** The API's anonymous rate limit and the sign-in throttle count an IPv6 address by its /64 too. */
describe('per-address limits and IPv6 /64s', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'true', RATE_LIMIT_ANONYMOUS: '3', SIGN_IN_MAX_FAILURES: '2', SIGN_IN_MAX_FAILURES_PER_IP: '2' });
  });
  afterAll(() => t.close());

  it('the API\'s rate limit: the addresses of one /64 share a budget, the next /64 has its own', async () => {
    const call = (ip: string) => http(t.url, '/api/public/v1/industries', { headers: { 'x-forwarded-for': ip } });
    for (let i = 1; i <= 3; i++) expect((await call(`2001:db8:cc:1::${i}`)).status).toBe(200);
    const limited = await call('2001:db8:cc:1:abcd::9');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
    expect((await call('2001:db8:cc:2::1')).status).toBe(200);
  });

  it('the sign-in throttle: failed passwords from one /64 are counted together', async () => {
    const browser = new BrowserSession(t.url);
    const page = await browser.get('/oauth/sign-in?return_to=%2Faccount');
    const signIn = (email: string, ip: string) => browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email, password: 'wrong password' }, { 'x-forwarded-for': ip });
    const failed = (res: { status: number; text: string }) => [res.status, res.text.includes('name="password"')];
    // Another account each time, so that only the address's counter can fill.
    expect(failed(await signIn('a1@example.com', '2001:db8:dd:1::1'))).toEqual([400, true]);
    expect(failed(await signIn('a2@example.com', '2001:db8:dd:1::2'))).toEqual([400, true]);
    const throttled = await signIn('a3@example.com', '2001:db8:dd:1:ffff::3');
    expect([throttled.status, throttled.text.includes('Too many failed attempts.')]).toEqual([429, true]);
    expect(failed(await signIn('a4@example.com', '2001:db8:dd:2::1'))).toEqual([400, true]);
  });
});

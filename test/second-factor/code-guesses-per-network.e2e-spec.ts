import { formInputs } from '../helpers/account';
import { TestClock } from '../helpers/clock';
import { BrowserResponse, BrowserSession, createSignInUser, hiddenInputs, OAuthTestUser } from '../helpers/oauth';
import { postPassword, turnOnAuthenticator } from '../helpers/second-factor';
import { startTestApp, TestApp } from '../helpers/test-app';

const PER_IP = 3;

/**
 * The authenticator's code page and its turn-off page count an IPv6 address by its /64, like every other
 * per-address limit (SECURITY.md, "Limits per address"; docs/second-factor.md): a host given a /64 does not
 * earn a fresh counter with each of its 2^64 addresses. The account's own code counter is set high here
 * (SIGN_IN_MAX_FAILURES), so only the address's (SIGN_IN_MAX_FAILURES_PER_IP) can fill.
 */
describe('code guesses per network (SECURITY.md, "Guessing codes")', () => {
  let t: TestApp;
  let clock: TestClock;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'true', SIGN_IN_MAX_FAILURES: '50', SIGN_IN_MAX_FAILURES_PER_IP: String(PER_IP), SIGN_IN_WINDOW: '900' });
    clock = new TestClock(t.app);
  });
  afterAll(async () => {
    clock.restore();
    await t.close();
  });

  /** A user with the authenticator on, and the browser that turned it on (still signed in). */
  async function withAuthenticator(): Promise<{ user: OAuthTestUser; browser: BrowserSession }> {
    const user = await createSignInUser(t.app);
    const browser = new BrowserSession(t.url);
    await turnOnAuthenticator(browser, user, () => clock.now());
    clock.advance(30_000);
    return { user, browser };
  }

  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('the code page: wrong codes from the addresses of one /64 are counted together, another /64 apart', async () => {
    const { user } = await withAuthenticator();
    const browser = new BrowserSession(t.url);
    let codePage: BrowserResponse = await postPassword(browser, await browser.get('/oauth/sign-in?return_to=%2Faccount'), user);
    expect(codePage.text).toContain('name="code"');
    for (let i = 1; i <= PER_IP; i++) {
      const guess = await browser.post('/oauth/sign-in', { ...hiddenInputs(codePage.text), code: String(100000 + i) }, from(`2001:db8:5e:1::${i}`));
      expect(guess.status).toBe(400);
      codePage = guess;
    }
    const limited = await browser.post('/oauth/sign-in', { ...hiddenInputs(codePage.text), code: '123456' }, from('2001:db8:5e:1:ffff:1:2:3'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await browser.post('/oauth/sign-in', { ...hiddenInputs(codePage.text), code: '123456' }, from('2001:db8:5e:2::1'))).status).toBe(400);
    clock.advance(901_000);
  });

  it('the turn-off page: wrong codes from the addresses of one /64 are counted together, another /64 apart', async () => {
    const { browser } = await withAuthenticator();
    const security = await browser.get('/account/security');
    const form = formInputs(security.text, '/account/security/authenticator/off');
    for (let i = 1; i <= PER_IP; i++) {
      expect((await browser.post('/account/security/authenticator/off', { ...form, code: String(200000 + i) }, from(`2001:db8:5e:3::${i}`))).status).toBe(400);
    }
    const limited = await browser.post('/account/security/authenticator/off', { ...form, code: '123456' }, from('2001:db8:5e:3:abcd::9'));
    expect(limited.status).toBe(429);
    expect((await browser.post('/account/security/authenticator/off', { ...form, code: '123456' }, from('2001:db8:5e:4::1'))).status).toBe(400);
    clock.advance(901_000);
  });
});

import { http } from '../helpers/http';
import { BrowserSession, createSignInUser, hiddenInputs } from '../helpers/oauth';
import { TestClock } from '../helpers/clock';
import { turnOnAuthenticator } from '../helpers/second-factor';
import { startTestApp, TestApp } from '../helpers/test-app';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** What a newcomer trips on first (README.md, Pages): addresses they type, the icon, the code field on a phone. */
describe('a newcomer’s first hour', () => {
  let t: TestApp;
  let clock: TestClock;

  beforeAll(async () => {
    t = await startTestApp();
    clock = new TestClock(t.app);
  });
  afterAll(async () => {
    clock.restore();
    await t?.close();
  });

  it.each([
    ['/login', '/oauth/sign-in?return_to=%2Faccount'],
    ['/signin', '/oauth/sign-in?return_to=%2Faccount'],
    ['/account/sign-in', '/oauth/sign-in?return_to=%2Faccount'],
    ['/account/login', '/oauth/sign-in?return_to=%2Faccount'],
    ['/account/', '/account'],
    ['/register', '/account/sign-up'],
    ['/signup', '/account/sign-up'],
  ])('sends a browser that typed %s on to %s, and answers an API client the JSON 404 envelope', async (typed, target) => {
    const browser = await http(t.url, typed, { headers: { accept: BROWSER_ACCEPT } });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe(target);
    for (const accept of ['application/json', '*/*']) {
      const api = await http(t.url, typed, { headers: { accept, 'accept-language': 'en' } });
      expect(api.status).toBe(404);
      expect(api.headers.get('content-type')).toMatch(/^application\/json/);
      expect(api.body).toEqual({ error: { code: 'NOT_FOUND', message: 'The requested resource was not found.', requestId: expect.any(String) } });
    }
  });

  it('serves an icon at /favicon.ico, cached for long, under the CSP, and every page links it', async () => {
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const icon = await fetch(`${t.url}${path}`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/svg+xml');
      expect(Number(/max-age=(\d+)/.exec(icon.headers.get('cache-control') ?? '')?.[1])).toBeGreaterThanOrEqual(7 * 86_400);
      expect(icon.headers.get('content-security-policy')).toBeTruthy();
      const svg = await icon.text();
      expect(svg).toMatch(/^<svg /);
      expect(svg).not.toMatch(/script|href/i);
    }
    const page = await new BrowserSession(t.url, 'en').get('/oauth/sign-in?return_to=%2Faccount');
    expect(page.text).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self'");
  });

  it.each([
    ['en', 'If you do not have your phone with you, you can enter one of your recovery codes instead.'],
    ['tr', 'Telefonunuz yanınızda değilse kurtarma kodlarınızdan birini'],
  ] as const)('lets a phone type a recovery code in the code fields, and says it works (%s)', async (language, hint) => {
    const user = await createSignInUser(t.app);
    const owner = new BrowserSession(t.url, language);
    await turnOnAuthenticator(owner, user, () => clock.now());
    clock.advance(30_000);
    const noDigitsOnly = (input: string) => {
      expect(input).toContain('autocomplete="one-time-code"');
      expect(input).not.toContain('inputmode="numeric"');
      expect(input).not.toContain('pattern=');
    };

    const browser = new BrowserSession(t.url, language);
    const signIn = await browser.get('/oauth/sign-in?return_to=%2Faccount');
    const codeStep = await browser.post('/oauth/sign-in', { ...hiddenInputs(signIn.text), email: user.email, password: user.password });
    expect(codeStep.status).toBe(200);
    noDigitsOnly(/<input id="code"[^>]*>/.exec(codeStep.text)![0]);
    expect(codeStep.text).toContain(hint);

    const security = await owner.get('/account/security');
    noDigitsOnly(/<input id="off-code"[^>]*>/.exec(security.text)![0]);
    expect(/<input id="off-code"[^>]*>/.exec(security.text)![0]).toContain('aria-describedby="off-code-hint"');
    expect(security.text).toMatch(new RegExp(`<p class="muted" id="off-code-hint">${hint}`));
  });
});

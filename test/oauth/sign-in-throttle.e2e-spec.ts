import { randomInt } from 'node:crypto';
import { Clock } from '../../src/common/clock';
import { DEVICE_COOKIE } from '../../src/oauth/sign-in/device-cookie.service';
import { UsersService } from '../../src/users/users.service';
import { authorizePath, BrowserResponse, BrowserSession, createSignInUser, hiddenInputs, OAuthTestClient, OAuthTestUser, registerClient } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * The sign-in throttle against simultaneous attempts and the device cookies that keep an owner's known
 * browser out of a stranger's lock-out (SECURITY.md, "Password guessing"). Bursts are fired at once
 * over HTTP at the real app; the password checks are counted on the real UsersService. The window's
 * end is reached by setting the app's Clock, never by waiting.
 */
const MAX = 5;
/** SIGN_IN_MAX_FAILURES_PER_IP, set low here so that the address's own limit is reached in a test. */
const MAX_PER_IP = 8;
const WINDOW_SECONDS = 900;

let lastIp = 0;
/** A fresh address for each attempt (the app trusts X-Forwarded-For here), so that only the account's counter is in play. */
function newIp(): string {
  lastIp += 1;
  return `10.${(lastIp >> 16) & 255}.${(lastIp >> 8) & 255}.${lastIp & 255}`;
}

/** The sign-in form of an authorization request, asked for again even when the browser is signed in. */
async function signInForm(browser: BrowserSession, client: OAuthTestClient): Promise<Record<string, string>> {
  const page = await browser.get(authorizePath({ response_type: 'code', client_id: client.clientId, redirect_uri: client.redirectUri, prompt: 'login' }));
  expect(page.text).toContain('name="password"');
  return hiddenInputs(page.text);
}

async function attempt(browser: BrowserSession, client: OAuthTestClient, email: string, password: string, ip = newIp()): Promise<BrowserResponse> {
  return browser.post('/oauth/sign-in', { ...(await signInForm(browser, client)), email, password }, { 'x-forwarded-for': ip });
}

/** Signed in: the consent page, or straight back to the client when consent is remembered. */
function signedIn(res: BrowserResponse): boolean {
  return (res.status === 200 && res.text.includes('name="decision"')) || res.status === 303;
}

function countBy(responses: BrowserResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const res of responses) counts[res.status] = (counts[res.status] ?? 0) + 1;
  return counts;
}

function expectThrottled(res: BrowserResponse): void {
  expect(res.status).toBe(429);
  expect(res.text).toContain('Too many failed attempts.');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
}

describe('sign-in throttle: simultaneous attempts are counted before their password is checked', () => {
  let t: TestApp;
  let client: OAuthTestClient;
  let authenticate: jest.SpyInstance;

  beforeAll(async () => {
    t = await startTestApp({ SIGN_IN_MAX_FAILURES: String(MAX), SIGN_IN_MAX_FAILURES_PER_IP: String(MAX_PER_IP), SIGN_IN_WINDOW: String(WINDOW_SECONDS), TRUST_PROXY: 'true' });
    client = await registerClient(t.app);
    authenticate = jest.spyOn(t.app.get(UsersService), 'authenticate');
  });
  beforeEach(() => authenticate.mockClear());
  afterAll(() => t.close());

  /** 30 posts of one form, all sent before any answer comes back. */
  async function burst(browser: BrowserSession, tries: Array<{ email: string; password: string; ip: string }>): Promise<BrowserResponse[]> {
    const form = await signInForm(browser, client);
    return Promise.all(tries.map(({ email, password, ip }) => browser.post('/oauth/sign-in', { ...form, email, password }, { 'x-forwarded-for': ip })));
  }

  it('checks SIGN_IN_MAX_FAILURES of 30 simultaneous wrong passwords, refuses the other 25 with 429 and Retry-After, then refuses the right one', async () => {
    const user = await createSignInUser(t.app);
    const browser = new BrowserSession(t.url);
    const responses = await burst(
      browser,
      Array.from({ length: 30 }, (_, i) => ({ email: user.email, password: `wrong ${i}`, ip: newIp() })),
    );
    expect(countBy(responses)).toEqual({ 400: MAX, 429: 30 - MAX });
    responses.filter((res) => res.status === 429).forEach(expectThrottled);
    expect(authenticate).toHaveBeenCalledTimes(MAX);

    const right = await attempt(browser, client, user.email, user.password);
    expectThrottled(right);
    expect(authenticate).toHaveBeenCalledTimes(MAX);
  });

  it('with the right password at a random place in a burst from one address, checks at most SIGN_IN_MAX_FAILURES wrong ones and signs in only if it was checked', async () => {
    const user = await createSignInUser(t.app);
    const ip = newIp();
    const position = randomInt(30);
    const tries = Array.from({ length: 30 }, (_, i) => ({ email: user.email, password: i === position ? user.password : `wrong ${i}`, ip }));
    const responses = await burst(new BrowserSession(t.url), tries);

    const wrongChecked = responses.filter((res) => res.status === 400).length;
    const succeeded = responses.filter(signedIn).length;
    expect(wrongChecked).toBeLessThanOrEqual(MAX);
    expect(wrongChecked + succeeded + responses.filter((res) => res.status === 429).length).toBe(30);
    expect(authenticate).toHaveBeenCalledTimes(wrongChecked + succeeded);
    const rightChecked = authenticate.mock.calls.some(([, password]) => password === user.password);
    expect(succeeded).toBe(rightChecked ? 1 : 0);
    if (!rightChecked) expectThrottled(responses[position]);
  });

  it('limits one address trying 30 accounts at once to SIGN_IN_MAX_FAILURES_PER_IP password checks', async () => {
    const ip = newIp();
    const responses = await burst(
      new BrowserSession(t.url),
      Array.from({ length: 30 }, (_, i) => ({ email: `sprayed-${i}@example.com`, password: 'Summer2025!', ip })),
    );
    expect(countBy(responses)).toEqual({ 400: MAX_PER_IP, 429: 30 - MAX_PER_IP });
    expect(authenticate).toHaveBeenCalledTimes(MAX_PER_IP);
  });

  it('six people behind one address: the one who mistypes five times is held, the other five still sign in, and the address stops at SIGN_IN_MAX_FAILURES_PER_IP', async () => {
    const office = newIp();
    const people = await Promise.all(Array.from({ length: 6 }, () => createSignInUser(t.app)));
    const [clumsy, ...others] = people;
    const browser = new BrowserSession(t.url);
    for (let i = 0; i < MAX; i++) expect((await attempt(browser, client, clumsy.email, `typo ${i}`, office)).status).toBe(400);
    expectThrottled(await attempt(browser, client, clumsy.email, clumsy.password, office));
    for (const person of others) expect(signedIn(await attempt(new BrowserSession(t.url), client, person.email, person.password, office))).toBe(true);

    // The address's own limit: MAX_PER_IP failures in all, whichever accounts, then everyone behind it waits.
    for (let i = MAX; i < MAX_PER_IP; i++) expect((await attempt(browser, client, others[0].email, `typo ${i}`, office)).status).toBe(400);
    expectThrottled(await attempt(new BrowserSession(t.url), client, others[1].email, others[1].password, office));
    expect(signedIn(await attempt(new BrowserSession(t.url), client, others[1].email, others[1].password))).toBe(true);
  });

  it('lets the account sign in again once SIGN_IN_WINDOW has passed on the clock', async () => {
    const clock = jest.spyOn(t.app.get(Clock), 'now');
    try {
      const start = Date.now();
      clock.mockReturnValue(start);
      const user = await createSignInUser(t.app);
      const browser = new BrowserSession(t.url);
      for (let i = 0; i < MAX; i++) expect((await attempt(browser, client, user.email, 'wrong')).status).toBe(400);

      clock.mockReturnValue(start + (WINDOW_SECONDS - 60) * 1000);
      const late = await attempt(browser, client, user.email, user.password);
      expectThrottled(late);
      expect(late.headers.get('retry-after')).toBe('60');

      clock.mockReturnValue(start + WINDOW_SECONDS * 1000);
      expect(signedIn(await attempt(browser, client, user.email, user.password))).toBe(true);
    } finally {
      clock.mockRestore();
    }
  });
});

describe('sign-in throttle: device cookies keep the owner of an account signing in while a stranger locks it', () => {
  let t: TestApp;
  let client: OAuthTestClient;

  beforeAll(async () => {
    t = await startTestApp({ SIGN_IN_MAX_FAILURES: String(MAX), SIGN_IN_WINDOW: String(WINDOW_SECONDS), TRUST_PROXY: 'true' });
    client = await registerClient(t.app);
  });
  afterAll(() => t.close());

  /** The owner signs in once in their own browser, which keeps its device cookie. */
  async function ownersBrowser(user: OAuthTestUser): Promise<BrowserSession> {
    const browser = new BrowserSession(t.url);
    expect(signedIn(await attempt(browser, client, user.email, user.password))).toBe(true);
    expect(browser.cookies.get(DEVICE_COOKIE)).toBeTruthy();
    return browser;
  }

  /** A stranger's browser (no device cookie) fills the account's counter from many addresses. */
  async function lockOut(user: OAuthTestUser): Promise<void> {
    const stranger = new BrowserSession(t.url);
    for (let i = 0; i < MAX; i++) expect((await attempt(stranger, client, user.email, `guess ${i}`)).status).toBe(400);
    expectThrottled(await attempt(stranger, client, user.email, user.password));
  }

  it('is set after a successful sign-in: HttpOnly, SameSite=Lax, Path=/, for 180 days', async () => {
    const user = await createSignInUser(t.app);
    const res = await attempt(new BrowserSession(t.url), client, user.email, user.password);
    const cookie = res.headers.getSetCookie().find((header) => header.startsWith(`${DEVICE_COOKIE}=`));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(new RegExp(`; Max-Age=${180 * 24 * 3600}`));
    expect(cookie).not.toMatch(/; Secure/);
  });

  it('lets the owner’s known browser sign in while the account is locked for everyone else', async () => {
    const user = await createSignInUser(t.app);
    const owner = await ownersBrowser(user);
    await lockOut(user);
    expect(signedIn(await attempt(owner, client, user.email, user.password))).toBe(true);
    // The account stays locked for browsers without the cookie.
    expectThrottled(await attempt(new BrowserSession(t.url), client, user.email, user.password));
  });

  it('gives a tampered device cookie no exemption', async () => {
    const user = await createSignInUser(t.app);
    const owner = await ownersBrowser(user);
    await lockOut(user);
    const value = owner.cookies.get(DEVICE_COOKIE)!;
    const forger = new BrowserSession(t.url);
    const flipped = value.slice(0, -2) + (value.at(-2) === 'A' ? 'B' : 'A') + value.at(-1);
    forger.cookies.set(DEVICE_COOKIE, flipped);
    expectThrottled(await attempt(forger, client, user.email, user.password));
    forger.cookies.set(DEVICE_COOKIE, 'v1.' + Buffer.from(JSON.stringify({ uid: user.id, nonce: 'n'.repeat(22) })).toString('base64url'));
    expectThrottled(await attempt(forger, client, user.email, user.password));
  });

  it('gives a device cookie of another account no exemption', async () => {
    const user = await createSignInUser(t.app);
    const other = await createSignInUser(t.app);
    const othersBrowser = await ownersBrowser(other);
    await lockOut(user);
    expectThrottled(await attempt(othersBrowser, client, user.email, user.password));
  });

  it('gives an expired device cookie no exemption', async () => {
    const clock = jest.spyOn(t.app.get(Clock), 'now');
    try {
      const start = Date.now();
      clock.mockReturnValue(start);
      const user = await createSignInUser(t.app);
      const owner = await ownersBrowser(user);
      clock.mockReturnValue(start + 181 * 24 * 3600 * 1000);
      await lockOut(user);
      expectThrottled(await attempt(owner, client, user.email, user.password));
    } finally {
      clock.mockRestore();
    }
  });

  it('locks a device whose own counter is full, and only that device', async () => {
    const user = await createSignInUser(t.app);
    const owner = await ownersBrowser(user);
    for (let i = 0; i < MAX; i++) expect((await attempt(owner, client, user.email, `typo ${i}`)).status).toBe(400);
    expectThrottled(await attempt(owner, client, user.email, user.password));
    // The device's failures were not the account's: another browser still signs in.
    expect(signedIn(await attempt(new BrowserSession(t.url), client, user.email, user.password))).toBe(true);
  });
});

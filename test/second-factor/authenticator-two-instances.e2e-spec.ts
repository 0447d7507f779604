import { TestClock } from '../helpers/clock';
import { BrowserSession, createSignInUser } from '../helpers/oauth';
import { postCode, postPassword, totpCode, turnOnAuthenticator } from '../helpers/second-factor';
import { engine, isolatedStorage, startTestApp, TestApp } from '../helpers/test-app';

/**
 * Two instances of the service sharing one PostgreSQL (and Redis when the suite runs with
 * TEST_REDIS_URL): a code used to sign in on one is refused on the other, and a recovery code too
 * (SECURITY.md, "Second factor": the last step used is moved forward by one conditional UPDATE in the
 * shared database).
 */
const shared = engine() === 'postgres' ? describe : describe.skip;

shared('authenticator app on two instances (docs/second-factor.md)', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let a: TestApp;
  let b: TestApp;
  let clocks: TestClock[];

  beforeAll(async () => {
    storage = await isolatedStorage();
    const env = {
      ...storage.env,
      SESSION_SECRET: 'one secret for every instance, 32+ characters long',
      KEY_ENCRYPTION_SECRET: 'one key-encryption secret for every instance, 32+ characters',
    };
    // One after the other, so the migrations run once.
    a = await startTestApp(env);
    b = await startTestApp(env);
    clocks = [new TestClock(a.app), new TestClock(b.app)];
    const at = Math.max(...clocks.map((c) => c.now()));
    for (const clock of clocks) clock.setTo(at);
  }, 300_000);
  afterAll(async () => {
    for (const clock of clocks ?? []) clock.restore();
    await a?.close();
    await b?.close();
    await storage?.drop();
  });

  const advance = (ms: number) => clocks.forEach((clock) => clock.advance(ms));

  async function codePageOn(instance: TestApp, user: { email: string; password: string }) {
    const browser = new BrowserSession(instance.url);
    const page = await browser.get('/oauth/sign-in?return_to=%2Faccount');
    return { browser, codePage: await postPassword(browser, page, user) };
  }

  it('refuses on one instance a code used on the other, and a recovery code used on the other', async () => {
    const user = await createSignInUser(a.app);
    const { secret, recoveryCodes } = await turnOnAuthenticator(new BrowserSession(a.url), user, () => clocks[0].now());
    advance(30_000);
    const code = totpCode(secret, clocks[0].now());

    const onA = await codePageOn(a, user);
    expect((await postCode(onA.browser, onA.codePage, code)).status).toBe(303);
    const onB = await codePageOn(b, user);
    expect(onB.codePage.status).toBe(200);
    const replayed = await postCode(onB.browser, onB.codePage, code);
    expect(replayed.status).toBe(400);
    expect((await onB.browser.get('/account')).status).toBe(303);

    const first = await codePageOn(b, user);
    expect((await postCode(first.browser, first.codePage, recoveryCodes[0])).status).toBe(303);
    const second = await codePageOn(a, user);
    expect((await postCode(second.browser, second.codePage, recoveryCodes[0])).status).toBe(400);

    // The instances read each other's secret (one KEY_ENCRYPTION_SECRET): B takes the next step's code.
    advance(30_000);
    expect((await postCode(onB.browser, replayed, totpCode(secret, clocks[1].now()))).status).toBe(303);
  });
});

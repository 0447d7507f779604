import { MailSender, retryDelayMs } from '../../src/mail/mail-sender.service';
import { formInputs } from '../helpers/account';
import { TestClock } from '../helpers/clock';
import { http } from '../helpers/http';
import { TestSmtpServer } from '../helpers/mail';
import { BrowserSession, createSignInUser } from '../helpers/oauth';
import { engine, isolatedStorage, startTestApp, TestApp } from '../helpers/test-app';

/**
 * The outbox on two instances sharing one PostgreSQL (and Redis when TEST_REDIS_URL is set), docs/mail.md:
 * each action's mail is delivered exactly once though both senders claim at the same time, and none is
 * lost while the mail server is down: delivered once it is back, after the backoff on each instance's clock.
 */
const shared = engine() === 'postgres' ? describe : describe.skip;

shared('the mail outbox on two instances sharing one database', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let smtp: TestSmtpServer;
  let a: TestApp;
  let b: TestApp;
  let clocks: TestClock[];

  beforeAll(async () => {
    storage = await isolatedStorage();
    smtp = await TestSmtpServer.start();
    const env = { ...storage.env, SESSION_SECRET: 'one secret for every instance, 32+ characters long', SMTP_URL: smtp.url, MAIL_MAX_PER_HOUR: '50' };
    // One after the other, so the migrations run once.
    a = await startTestApp(env);
    b = await startTestApp(env);
    clocks = [new TestClock(a.app), new TestClock(b.app)];
    for (const t of [a, b]) t.app.get(MailSender).stopLoop();
  }, 300_000);
  afterAll(async () => {
    for (const clock of clocks ?? []) clock.restore();
    await a?.close();
    await b?.close();
    await smtp?.stop();
    await storage?.drop();
  });

  async function signUp(t: TestApp, email: string): Promise<void> {
    const browser = new BrowserSession(t.url, 'en');
    const page = await browser.get('/account/sign-up');
    const answer = await browser.post('/account/sign-up', { ...formInputs(page.text, '/account/sign-up'), name: 'Two', email, password: 'two instances share one outbox' });
    expect([answer.status, answer.location]).toEqual([303, '/account/sign-up/sent']);
  }

  /** Both senders, several rounds each, all at once. */
  async function deliverOnBoth(): Promise<number> {
    const rounds = await Promise.all([a, b, a, b, a, b].map((t) => t.app.get(MailSender).deliverDue()));
    return rounds.reduce((sum, n) => sum + n, 0);
  }

  it('delivers one mail per action though both instances send at once', async () => {
    const owner = await createSignInUser(a.app);
    const addresses = Array.from({ length: 10 }, (_, i) => `both-${i}-${Date.now()}@example.com`);
    await Promise.all(addresses.map((email, i) => signUp(i % 2 === 0 ? a : b, email)));
    await signUp(b, owner.email);
    expect(await deliverOnBoth()).toBe(11);
    for (const email of [...addresses, owner.email]) expect([email, smtp.to(email).length]).toEqual([email, 1]);
    expect(smtp.to(owner.email)[0].subject).toContain('you already have an account');
  });

  it('loses none while the mail server is down and delivers each once when it is back', async () => {
    await smtp.stop();
    const addresses = Array.from({ length: 6 }, (_, i) => `outage-${i}-${Date.now()}@example.com`);
    await Promise.all(addresses.map((email, i) => signUp(i % 2 === 0 ? a : b, email)));
    expect(await deliverOnBoth()).toBe(0);
    const ready = await http(b.url, '/health/ready');
    expect(ready.body.info.mail).toMatchObject({ failing: 6 });

    await smtp.start();
    for (const clock of clocks) clock.advance(retryDelayMs(1));
    expect(await deliverOnBoth()).toBe(6);
    for (const email of addresses) expect([email, smtp.to(email).length]).toEqual([email, 1]);
    for (const clock of clocks) clock.advance(retryDelayMs(10));
    expect(await deliverOnBoth()).toBe(0);
    expect((await http(a.url, '/health/ready')).body.info.mail).toMatchObject({ failing: 0 });
  });
});

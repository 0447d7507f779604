import { DataSource } from 'typeorm';
import { WaysInService } from '../../src/account/password/ways-in.service';
import { ConnectedAppsService } from '../../src/account/apps/connected-apps.service';
import { AuthorizationCodesRepository } from '../../src/oauth/authorize/authorization-codes.repository';
import { Tx } from '../../src/database/transaction';
import { PasswordHasher } from '../../src/users/password-hasher';
import { signInAt } from '../helpers/account';
import { TestClock } from '../helpers/clock';
import { eventually } from '../helpers/eventually';
import { authorizationCode, me, Provisioned, redeem, refresh, REDIRECT_URI } from '../helpers/flows';
import { BrowserSession, createSignInUser, OAuthTestUser, registerClient } from '../helpers/oauth';
import { postCode, postPassword, totpCode, turnOnAuthenticator } from '../helpers/second-factor';
import { engine, startTestApp, TestApp } from '../helpers/test-app';

const NEW_PASSWORD = 'a new and much longer passphrase 42';

/**
 * A password reset or change ends every way in that came before it (SECURITY.md, "A stolen session
 * outliving a password reset"), also the ones still under way while it commits: a password step waiting for its code, a
 * sign-in whose password was being checked, a code being issued or redeemed.
 */
describe('a password reset ends the sign-ins under way (SECURITY.md, "A sign-in under way while the owner resets")', () => {
  let t: TestApp;
  let clock: TestClock;
  let waysIn: WaysInService;

  beforeAll(async () => {
    t = await startTestApp();
    clock = new TestClock(t.app);
    waysIn = t.app.get(WaysInService, { strict: false });
  });
  afterAll(async () => {
    clock.restore();
    await t.close();
  });
  // The spies of each test, undone after it (not jest.restoreAllMocks, which would take the TestClock's too).
  const spies: jest.SpyInstance[] = [];
  afterEach(() => spies.splice(0).forEach((spy) => spy.mockRestore()));

  /** The owner recovers: the operator's reset (the same `endAll` as the mailed link and the change form), a second later. */
  async function ownerResets(user: OAuthTestUser): Promise<void> {
    clock.advance(1000);
    expect(await waysIn.setPasswordByOperator(user.email, NEW_PASSWORD, clock.now())).not.toBeNull();
  }

  async function appFor(user: OAuthTestUser): Promise<Provisioned> {
    const client = await registerClient(t.app, { redirectUris: [REDIRECT_URI], scopes: ['profile', 'read:startups'] });
    return { user, client: { clientId: client.clientId, clientSecret: client.clientSecret!, redirectUri: REDIRECT_URI } };
  }

  it('refuses the code step of a password given before the reset: the attacker who knew the password and the code gets no session', async () => {
    const user = await createSignInUser(t.app);
    const { secret } = await turnOnAuthenticator(new BrowserSession(t.url), user, () => clock.now());
    clock.advance(30_000);
    // The attacker gives the old password and keeps the code page open.
    const attacker = new BrowserSession(t.url);
    const codePage = await postPassword(attacker, await attacker.get('/oauth/sign-in?return_to=%2Faccount'), user);
    expect(codePage.text).toContain('name="code"');

    await ownerResets(user);
    const late = await postCode(attacker, codePage, totpCode(secret, clock.now()));
    expect(late.status).toBe(400);
    expect(late.text).toContain('Your sign-in took too long. Please sign in again.');
    expect(late.headers.get('set-cookie') ?? '').not.toMatch(/sp_session=[^;]{20,}/);
    expect((await attacker.get('/account')).status).toBe(303);
  });

  it('ends the session of a sign-in whose old password was being checked while the reset committed', async () => {
    const user = await createSignInUser(t.app);
    const verify = PasswordHasher.verify.bind(PasswordHasher);
    // The reset commits after the sign-in read the old hash and before it made its session.
    spies.push(
      jest.spyOn(PasswordHasher, 'verify').mockImplementationOnce(async (password, hash) => {
        const ok = await verify(password, hash);
        await ownerResets(user);
        return ok;
      }),
    );
    const attacker = new BrowserSession(t.url);
    const signedIn = await signInAt(attacker, '/account', user);
    expect(signedIn.status).toBe(303);
    expect((await attacker.get('/account')).status).toBe(303);
  });

  it('refuses a code issued while the reset committed: its sign-in had ended', async () => {
    const user = await createSignInUser(t.app);
    const p = await appFor(user);
    const codes = t.app.get(AuthorizationCodesRepository, { strict: false });
    const insert = codes.insert.bind(codes);
    // The reset commits after the authorization request read the session and before its code is stored,
    // so the reset's retiring of the codes did not see it.
    spies.push(
      jest.spyOn(codes, 'insert').mockImplementationOnce(async (code) => {
        await ownerResets(user);
        return insert(code);
      }),
    );
    const code = await authorizationCode(new BrowserSession(t.url), p);
    const refused = await redeem(t.url, p, code);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'invalid_grant', error_description: 'The authorization code was issued in a sign-in that has ended since.' });
  });

  // Only PostgreSQL runs two writing transactions at once; SQLite's single writer orders them whole.
  (engine() === 'postgres' ? describe : describe.skip)('a redemption under way while the owner takes access back', () => {
    /**
     * Redeems a code, holding its transaction open once the code's row is taken until `during` has begun
     * and is waiting for that row; resolves with the token endpoint's answer.
     */
    async function redeemDuring(p: Provisioned, code: string, during: () => Promise<unknown>): Promise<{ access_token: string; refresh_token: string }> {
      const codes = t.app.get(AuthorizationCodesRepository, { strict: false });
      const original = codes.redeem.bind(codes);
      let change: Promise<unknown> | undefined;
      spies.push(
        jest.spyOn(codes, 'redeem').mockImplementationOnce(async (tx: Tx, id: number, now: number) => {
          const taken = await original(tx, id, now);
          change = during();
          // The change is blocked on the code's row, which this transaction holds.
          await eventually(async () => ((await waitingLocks()) > 0 ? true : null));
          return taken;
        }),
      );
      const redeemed = await redeem(t.url, p, code);
      expect(redeemed.status).toBe(200);
      await change;
      return redeemed.body as { access_token: string; refresh_token: string };
    }

    async function waitingLocks(): Promise<number> {
      const [row] = await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted');
      return row.n;
    }

    it('Revoke access revokes the tokens a redemption committed while it waited', async () => {
      const user = await createSignInUser(t.app);
      const p = await appFor(user);
      const code = await authorizationCode(new BrowserSession(t.url), p);
      const apps = t.app.get(ConnectedAppsService, { strict: false });
      const issued = await redeemDuring(p, code, () => apps.revoke(user.id, p.client.clientId, '203.0.113.9'));
      expect((await me(t.url, issued.access_token)).status).toBe(401);
      expect((await refresh(t.url, p, issued.refresh_token)).status).toBe(400);
    });

    it('a password reset revokes them too', async () => {
      const user = await createSignInUser(t.app);
      const p = await appFor(user);
      const code = await authorizationCode(new BrowserSession(t.url), p);
      const issued = await redeemDuring(p, code, () => waysIn.setPasswordByOperator(user.email, NEW_PASSWORD, clock.now()));
      expect((await me(t.url, issued.access_token)).status).toBe(401);
      expect((await refresh(t.url, p, issued.refresh_token)).status).toBe(400);
    });
  });
});

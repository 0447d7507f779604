import { DataSource } from 'typeorm';
import { Tx } from '../../src/database/transaction';
import { UsersRepository } from '../../src/users/users.repository';
import { formInputs, signInAt } from '../helpers/account';
import { eventually } from '../helpers/eventually';
import { MailTestApp, startMailTestApp } from '../helpers/mail';
import { BrowserSession, createSignInUser } from '../helpers/oauth';
import { engine, TestApp } from '../helpers/test-app';

/**
 * One address, claimed at the same moment by a sign-up's confirmation and by another account's change of
 * address: one of them gets it, the other is refused like any link whose address was taken meanwhile,
 * and nothing answers 500. Only PostgreSQL runs two writing transactions at once (SQLite's single writer
 * orders them whole), so only there can the change read "nobody has it" before the sign-up commits.
 */
(engine() === 'postgres' ? describe : describe.skip)('one address claimed twice at once (README.md, Your account)', () => {
  let t: TestApp;
  let mailApp: MailTestApp;
  const password = 'a long sentence nobody guesses';
  const spies: jest.SpyInstance[] = [];

  beforeAll(async () => {
    mailApp = await startMailTestApp();
    ({ t } = mailApp);
  });
  afterAll(() => mailApp?.close());
  afterEach(() => spies.splice(0).forEach((spy) => spy.mockRestore()));

  const local = (url: string) => url.slice(t.url.length);
  const linkIn = async (to: string, path: string) => {
    const mail = (await mailApp.mailsTo(to)).find((m) => m.text.includes(`/account/${path}?token=`));
    return local(new RegExp(`https?://\\S+/account/${path}\\?token=\\S+`).exec(mail!.text)![0]);
  };

  async function waitingLocks(): Promise<number> {
    const [row] = await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted');
    return row.n;
  }

  it("a change of address that waited on a sign-up's confirmation of the same address is refused, changing nothing", async () => {
    const contested = `contested-${Date.now()}@example.com`;

    // An account asks to move to the address; a stranger signs up with it. Both links reach its mailbox.
    const mover = await createSignInUser(t.app);
    const moverBrowser = new BrowserSession(t.url, 'en');
    expect((await signInAt(moverBrowser, '/account', mover)).status).toBe(200);
    const security = await moverBrowser.get('/account/security');
    const asked = await moverBrowser.post('/account/security/email', { ...formInputs(security.text, '/account/security/email'), new_email: contested, current_password: mover.password });
    expect(asked.status).toBe(303);
    const signUpBrowser = new BrowserSession(t.url, 'en');
    const signUpPage = await signUpBrowser.get('/account/sign-up');
    expect(
      (await signUpBrowser.post('/account/sign-up', { ...formInputs(signUpPage.text, '/account/sign-up'), name: 'Newcomer', email: contested, password })).status,
    ).toBe(303);
    const changeLink = await eventually(() => linkIn(contested, 'confirm-new-email').catch(() => null));
    const signUpLink = await eventually(() => linkIn(contested, 'confirm-email').catch(() => null));

    // The confirmation's INSERT is written and its transaction still open when the change is pressed: the
    // change's UPDATE has found no account with the address and waits on the sign-up's row.
    const users = t.app.get(UsersRepository, { strict: false });
    const original = users.insertConfirmed.bind(users);
    let change: Promise<{ status: number }> | undefined;
    const changeBrowser = new BrowserSession(t.url, 'en');
    const changePage = await changeBrowser.get(changeLink);
    expect(changePage.status).toBe(200);
    spies.push(
      jest.spyOn(users, 'insertConfirmed').mockImplementationOnce(async (tx: Tx, user) => {
        const id = await original(tx, user);
        change = changeBrowser.post('/account/confirm-new-email', formInputs(changePage.text, '/account/confirm-new-email'));
        await eventually(async () => ((await waitingLocks()) > 0 ? true : null));
        return id;
      }),
    );
    const confirmPage = await signUpBrowser.get(signUpLink);
    const confirmed = await signUpBrowser.post('/account/confirm-email', { ...formInputs(confirmPage.text, '/account/confirm-email'), password });
    expect(confirmed.status).toBe(200);

    // The change is refused as a link whose address was taken meanwhile is: 400, not 500.
    expect((await change!).status).toBe(400);
    // The newcomer has the address; the mover keeps theirs.
    expect((await signInAt(new BrowserSession(t.url), '/account', { email: contested, password })).status).toBe(200);
    expect((await signInAt(new BrowserSession(t.url), '/account', mover)).status).toBe(200);
    const [row] = await t.app.get(DataSource).query('SELECT email FROM users WHERE id = $1', [mover.id]);
    expect(row.email).toBe(mover.email);
  });
});

import { randomBytes } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { DataSource } from 'typeorm';
import { formInputs, signInAt } from '../helpers/account';
import { MailTestApp, ReceivedMail, startMailTestApp } from '../helpers/mail';
import { BrowserSession, createSignInUser } from '../helpers/oauth';
import { TestApp } from '../helpers/test-app';

const MAIL_MAX_PER_HOUR = 5;

/**
 * One mailbox, one address (README.md, Your account; SECURITY.md, "One mailbox, one address"): every
 * spelling of an address that a mail server delivers to one inbox is one account and one mail budget,
 * through the real pages and a real SMTP server; spellings that only serve to deceive are refused with a
 * reason. The inbox is worked out here as a mail server would (the quotes around a local part dropped,
 * the domain mapped by WHATWG URL's own UTS #46), not by the service's function.
 */
describe('one mailbox, one address (SECURITY.md, "One mailbox, two accounts")', () => {
  let t: TestApp;
  let mailApp: MailTestApp;

  beforeAll(async () => {
    mailApp = await startMailTestApp({ MAIL_MAX_PER_HOUR: String(MAIL_MAX_PER_HOUR), SIGN_IN_MAX_FAILURES: '20' });
    ({ t } = mailApp);
  });
  afterAll(() => mailApp?.close());

  /** The inbox a mail server delivers `address` to. */
  function mailbox(address: string): string {
    const at = address.lastIndexOf('@');
    const local = address.slice(0, at).replace(/^"(.*)"$/, '$1').toLowerCase();
    return `${local}@${domainToASCII(address.slice(at + 1))}`;
  }
  async function inbox(address: string): Promise<ReceivedMail[]> {
    await mailApp.mailsTo(address);
    return mailApp.smtp.received.filter((mail) => mailbox(mail.to) === mailbox(address));
  }
  const tag = () => randomBytes(3).toString('hex');

  async function post(path: string, fields: Record<string, string>, language = 'en') {
    const browser = new BrowserSession(t.url, language);
    const page = await browser.get(path);
    return browser.post(path, { ...formInputs(page.text, path), ...fields });
  }
  const signUp = (email: string, language = 'en') => post('/account/sign-up', { name: 'Mallory', email, password: 'a stranger chose this one' }, language);

  it('mails the owner of bob@example.com "you already have an account" when someone signs up as BOB@EXAMPLE.com or with the domain in another form, and stores no sign-up', async () => {
    const k = tag();
    const bob = await createSignInUser(t.app, `bob-${k}@example.com`);
    const ali = await createSignInUser(t.app, `ali-${k}@örnek.com`);
    expect(ali.email).toBe(`ali-${k}@xn--rnek-4qa.com`);
    const typed = [`BOB-${k}@EXAMPLE.com`, `bob-${k}@ＥＸＡＭＰＬＥ.com`, `Ali-${k}@ÖRNEK.com`, `ali-${k}@XN--RNEK-4QA.COM`];
    for (const email of typed) {
      const answer = await signUp(email);
      expect([answer.status, answer.location]).toEqual([303, '/account/sign-up/sent']);
    }
    for (const owner of [bob, ali]) {
      const mails = await inbox(owner.email);
      expect(mails.map((mail) => mail.subject.replace(/^.*: /, ''))).toEqual(['you already have an account', 'you already have an account']);
    }
    const pending = await t.app.get(DataSource).query(`SELECT email FROM pending_registrations WHERE email LIKE '%${k}%'`);
    expect(pending).toEqual([]);
    // The owner signs in with any spelling of the address, and a reset link reaches the one inbox.
    expect((await signInAt(new BrowserSession(t.url), '/account', { email: `BOB-${k}@ＥＸＡＭＰＬＥ.COM`, password: bob.password })).status).toBe(200);
    expect((await post('/account/forgot-password', { email: `ALI-${k}@örnek.COM` })).status).toBe(303);
    expect((await inbox(ali.email)).map((mail) => mail.subject.replace(/^.*: /, ''))).toEqual(['you already have an account', 'you already have an account', 'reset your password']);
  });

  it(`delivers at most MAIL_MAX_PER_HOUR mails to one inbox whatever spelling is typed (25 sign-ups, ${MAIL_MAX_PER_HOUR} mails)`, async () => {
    const k = tag();
    const spellings = [`dan-${k}@örnek.com`, `DAN-${k}@ÖRNEK.COM`, `dan-${k}@xn--rnek-4qa.com`, `Dan-${k}@XN--RNEK-4QA.com`, `dAn-${k}@Örnek.Com`];
    for (let i = 0; i < 25; i++) expect((await signUp(spellings[i % spellings.length])).status).toBe(303);
    expect(await inbox(`dan-${k}@xn--rnek-4qa.com`)).toHaveLength(MAIL_MAX_PER_HOUR);
  });

  it('refuses each deceptive spelling with its reason, in English and Turkish, and mails and stores nothing', async () => {
    const k = tag();
    const cases: Array<[string, string, string]> = [
      [`"carol-${k}"@example.com`, 'Quoted addresses ("…"@) are not accepted.', 'Tırnak içindeki adresler'],
      [`carol-${k}@exam\u00ADple.com`, 'invisible or formatting character', 'görünmeyen ya da biçimlendirme'],
      [`carol-${k}\u200B@example.com`, 'invisible or formatting character', 'görünmeyen ya da biçimlendirme'],
      [`carol-${k}@example.com\u202E`, 'invisible or formatting character', 'görünmeyen ya da biçimlendirme'],
      [`=?utf-8?q?carol-${k}?=@example.com`, 'MIME-encoded', 'MIME ile kodlanmış'],
      [`carol-${k}@[192.0.2.1]`, 'An IP address in place of a domain is not accepted.', 'Alan adı yerine IP adresi'],
      [`çarol-${k}@example.com`, 'The part before the @ may only use English letters', 'yalnızca İngilizce harfler'],
      [`carol-${k}\u0007@example.com`, 'control character', 'denetim karakteri'],
    ];
    for (const [email, english, turkish] of cases) {
      const en = await signUp(email, 'en');
      expect([en.status, en.text.includes(english.replace(/"/g, '&quot;'))]).toEqual([400, true]);
      const tr = await signUp(email, 'tr');
      expect([tr.status, tr.text.includes(turkish)]).toEqual([400, true]);
      const forgot = await post('/account/forgot-password', { email });
      expect([forgot.status, forgot.text.includes(english.replace(/"/g, '&quot;'))]).toEqual([400, true]);
    }
    await mailApp.mailsTo('nobody@example.com');
    expect(mailApp.smtp.received.filter((mail) => mail.to.includes(`carol-${k}`))).toEqual([]);
    expect(await t.app.get(DataSource).query(`SELECT email FROM pending_registrations WHERE email LIKE '%carol-${k}%'`)).toEqual([]);
  });

  it('a change of address: another spelling of the own address is "the same address", of another account mails its owner, a deceptive one is refused', async () => {
    const k = tag();
    const owner = await createSignInUser(t.app, `erin-${k}@örnek.com`);
    const user = await createSignInUser(t.app, `frank-${k}@example.com`);
    const browser = new BrowserSession(t.url, 'en');
    expect((await signInAt(browser, '/account/security', user)).status).toBe(200);
    const change = async (newEmail: string) => {
      const form = formInputs((await browser.get('/account/security')).text, '/account/security/email');
      return browser.post('/account/security/email', { ...form, new_email: newEmail, current_password: user.password });
    };

    const same = await change(`FRANK-${k}@ＥＸＡＭＰＬＥ.com`);
    expect([same.status, same.text.includes('The new address is your current one.')]).toEqual([400, true]);
    const taken = await change(`Erin-${k}@ÖRNEK.com`);
    expect(taken.status).toBeLessThan(400);
    expect((await inbox(owner.email)).map((mail) => mail.subject.replace(/^.*: /, ''))).toEqual(['you already have an account']);
    const refused = await change(`erin-${k}@ör\u00ADnek.com`);
    expect([refused.status, refused.text.includes('invisible or formatting character')]).toEqual([400, true]);
  });
});

import { mailDestination } from './mail-destination';

describe('mailDestination (the start-up banner)', () => {
  it('says the console when mail is printed there', () => {
    expect(mailDestination({ toConsole: true })).toBe('printed on this console, links included (set SMTP_URL to send it)');
  });

  it('names the SMTP host and port without the user or password', () => {
    const said = mailDestination({ smtpUrl: 'smtps://mailer:s3cr3t-pass@smtp.example.com:465', toConsole: false });
    expect(said).toBe('sent through smtps://smtp.example.com:465');
    expect(said).not.toMatch(/mailer|s3cr3t/);
  });
});

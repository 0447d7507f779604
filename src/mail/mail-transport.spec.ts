import { consoleTransport } from './mail-transport';

describe('consoleTransport', () => {
  it('prints the whole mail, its links unmasked, so that a newcomer can follow them without a mail server', async () => {
    const printed: string[] = [];
    const transport = consoleTransport((text) => printed.push(text));
    const link = 'http://localhost:3000/account/confirm-email?token=abc123';
    await transport.send({ id: 1, attempts: 1, to: 'ada@example.com', subject: 'Confirm', text: `Open:\n${link}\n`, html: '<p>x</p>' }, 'P <no-reply@localhost>');
    expect(printed.join('')).toContain('To: ada@example.com');
    expect(printed.join('')).toContain('Subject: Confirm');
    expect(printed.join('')).toContain(link);
  });
});

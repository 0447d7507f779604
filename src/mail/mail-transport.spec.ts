import { consoleTransport, deliveryFailure } from './mail-transport';

describe('consoleTransport', () => {
  it('prints the whole mail, its links unmasked, so that a newcomer can follow them without a mail server', async () => {
    const printed: string[] = [];
    const transport = consoleTransport((text) => printed.push(text));
    const link = 'http://localhost:3000/account/confirm-email?token=abc123';
    await transport.send({ id: 1, attempts: 1, createdAt: 0, to: 'ada@example.com', subject: 'Confirm', text: `Open:\n${link}\n`, html: '<p>x</p>' }, 'P <no-reply@localhost>');
    expect(printed.join('')).toContain('To: ada@example.com');
    expect(printed.join('')).toContain('Subject: Confirm');
    expect(printed.join('')).toContain(link);
  });
});

describe('deliveryFailure', () => {
  const smtpError = (command: string, responseCode: number, message: string) => Object.assign(new Error(message), { code: 'EENVELOPE', command, responseCode });

  it.each([
    ['RCPT TO', 550, true],
    ['RCPT TO', 553, true],
    ['DATA', 554, true],
    ['RCPT TO', 450, false],
    ['DATA', 451, false],
    // The service refused, not this mail: every mail would fail alike until the operator sets it right.
    ['AUTH PLAIN', 535, false],
    ['MAIL FROM', 550, false],
    ['CONN', 554, false],
  ])('reads a %s answered %d as permanent: %s', (command, code, permanent) => {
    expect(deliveryFailure(smtpError(command, code, `Can't send mail: ${code} no`)).permanent).toBe(permanent);
  });

  it('reads a refused connection or a time-out as temporary', () => {
    expect(deliveryFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ESOCKET', command: 'CONN' })).permanent).toBe(false);
    expect(deliveryFailure('timeout').permanent).toBe(false);
  });

  it('describes the failure without any address in it', () => {
    const failure = deliveryFailure(smtpError('RCPT TO', 550, "Can't send mail - all recipients were rejected: 550 5.1.1 <bob@example.com>: no such user (from no-reply@platform.example)"));
    expect(failure.description).toBe("RCPT TO 550 Can't send mail - all recipients were rejected: 550 5.1.1 <address>: no such user (from <address>)");
    expect(failure.description).not.toContain('@');
  });
});

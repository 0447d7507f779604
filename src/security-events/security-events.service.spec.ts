import { Logger } from '@nestjs/common';
import { SecurityEventsRepository } from './security-events.repository';
import { SecurityEventsService } from './security-events.service';

describe('SecurityEventsService.record', () => {
  afterEach(() => jest.restoreAllMocks());

  it('stores the event and writes one structured log line with the same facts', async () => {
    const insert = jest.fn().mockResolvedValue(undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const sut = new SecurityEventsService({ insert } as unknown as SecurityEventsRepository);

    await sut.record({ userId: 7, type: 'access_revoked', ip: '203.0.113.9', details: { client: 'Acme', clientId: 'acme' }, at: Date.UTC(2026, 0, 2) });

    expect(insert).toHaveBeenCalledWith({
      userId: 7,
      type: 'access_revoked',
      ip: '203.0.113.9',
      details: JSON.stringify({ client: 'Acme', clientId: 'acme' }),
      createdAt: Date.UTC(2026, 0, 2),
    });
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(
      { securityEvent: 'access_revoked', userId: 7, ip: '203.0.113.9', at: '2026-01-02T00:00:00.000Z', client: 'Acme', clientId: 'acme' },
      'security event',
    );
  });

  it('writes no log line when the event could not be stored', async () => {
    const insert = jest.fn().mockRejectedValue(new Error('database down'));
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const sut = new SecurityEventsService({ insert } as unknown as SecurityEventsRepository);
    await expect(sut.record({ userId: 7, type: 'sign_in' })).rejects.toThrow('database down');
    expect(log).not.toHaveBeenCalled();
  });
});

import { Logger } from '@nestjs/common';
import { TokenPurgeScheduler } from './token-purge.scheduler';
import { TokenPurgeService } from './token-purge.service';

describe('TokenPurgeScheduler', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function scheduler(intervalSeconds: number) {
    const purge = jest.fn().mockResolvedValue({ codes: 1, accessTokens: 2, refreshTokens: 3 });
    const sut = new TokenPurgeScheduler({ purge } as unknown as TokenPurgeService, { purgeIntervalSeconds: intervalSeconds } as never);
    return { sut, purge };
  }

  it('purges every PURGE_INTERVAL seconds and stops on shutdown', async () => {
    const { sut, purge } = scheduler(60);
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(purge).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(120_000);
    expect(purge).toHaveBeenCalledTimes(3);
    sut.onApplicationShutdown();
    await jest.advanceTimersByTimeAsync(600_000);
    expect(purge).toHaveBeenCalledTimes(3);
  });

  it('does nothing when PURGE_INTERVAL is 0', async () => {
    const { sut, purge } = scheduler(0);
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(purge).not.toHaveBeenCalled();
  });

  it('keeps going after a failed purge', async () => {
    const { sut, purge } = scheduler(10);
    purge.mockRejectedValueOnce(new Error('database unavailable'));
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(20_000);
    expect(purge).toHaveBeenCalledTimes(2);
    sut.onApplicationShutdown();
  });

  it('logs what each run removed, as the CLI prints it', async () => {
    const lines: unknown[] = [];
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation((...args: unknown[]) => void lines.push(args));
    const { sut } = scheduler(30);
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(30_000);
    sut.onApplicationShutdown();
    log.mockRestore();
    expect(lines).toEqual([[{ codes: 1, accessTokens: 2, refreshTokens: 3 }, 'purged expired codes, tokens and signed-out sessions, and old security events']]);
  });
});

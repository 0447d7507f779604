import { RateLimitStore } from './rate-limit.types';

interface Window {
  count: number;
  endsAt: number;
}

/**
 * Fixed-window counters in this process's memory: the default without REDIS_URL, and the fallback while
 * Redis cannot be reached. Expired windows are swept once a window so memory stays bounded by the number
 * of callers seen in the last minute.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, Window>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    sweepEveryMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), sweepEveryMs);
    this.sweeper.unref();
  }

  async hit(key: string, windowMs: number, requests = 1): Promise<{ count: number; msLeft: number }> {
    return this.hitNow(key, windowMs, requests);
  }

  /** `hit`, answered at once: the counters are in this process, so no promise is needed. */
  hitNow(key: string, windowMs: number, requests = 1): { count: number; msLeft: number } {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += requests;
    return { count: window.count, msLeft: window.endsAt - now };
  }

  sweep(): void {
    const now = this.now();
    for (const [key, window] of this.windows) {
      if (window.endsAt <= now) this.windows.delete(key);
    }
  }

  get size(): number {
    return this.windows.size;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.windows.clear();
  }
}

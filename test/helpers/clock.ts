import { Clock } from '../../src/common/clock';

/**
 * The app's Clock (src/common/clock.ts) in the test's hand: it stands still at the time it was taken
 * and moves only when the test moves it, forward only (what the app cached at a later time must stay
 * cached). A rule bounded in time is checked on both sides of its end, whatever the machine's load,
 * instead of by waiting past it. `restore` gives the app the real clock back.
 */
export class TestClock {
  private at = Date.now();
  private readonly spy: jest.SpyInstance<number, []>;

  constructor(app: { get(token: typeof Clock): Clock }) {
    this.spy = jest.spyOn(app.get(Clock), 'now').mockImplementation(() => this.at);
  }

  now(): number {
    return this.at;
  }

  advance(ms: number): void {
    this.setTo(this.at + ms);
  }

  setTo(at: number): void {
    if (at < this.at) throw new Error(`the clock only moves forward: ${at} is ${this.at - at} ms before ${this.at}`);
    this.at = at;
  }

  restore(): void {
    this.spy.mockRestore();
  }
}

import { Injectable } from '@nestjs/common';
import { AppError } from '../errors/app-error';

/**
 * Whether this instance is draining after SIGTERM, and how many requests are still in flight, so that
 * readiness fails first and the process closes only once every accepted request has been answered.
 */
@Injectable()
export class ShutdownState {
  private draining = false;
  private inFlight = 0;
  private lastActivity = Date.now();

  begin(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  assertAccepting(): void {
    if (this.draining) throw new AppError('SERVICE_UNAVAILABLE');
  }

  requestStarted(): void {
    this.inFlight++;
    this.lastActivity = Date.now();
  }

  requestFinished(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.lastActivity = Date.now();
  }

  /**
   * Resolves once no request is in flight and none has started for `quietMs`: connections accepted just
   * before the listener closed get the chance to send their request and have it answered.
   */
  async whenIdle(quietMs: number): Promise<void> {
    while (this.inFlight > 0 || Date.now() - this.lastActivity < quietMs) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

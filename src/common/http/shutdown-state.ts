import { Injectable } from '@nestjs/common';
import { AppError } from '../errors/app-error';

/** Whether this instance is draining after SIGTERM, so readiness can fail before the port closes. */
@Injectable()
export class ShutdownState {
  private draining = false;

  begin(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  assertAccepting(): void {
    if (this.draining) throw new AppError('SERVICE_UNAVAILABLE');
  }
}

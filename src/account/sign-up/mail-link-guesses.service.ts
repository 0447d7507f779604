import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { SignInThrottleService } from '../../rate-limit/sign-in-throttle.service';
import type { LinkCheck } from './sign-up.service';

/**
 * Guesses at the tokens of mail links, throttled per IP like sign-in (README.md, Your account;
 * SECURITY.md, "Guessing mail links"): each look-up takes a slot on the IP's counter first, under
 * SIGN_IN_MAX_FAILURES per SIGN_IN_WINDOW, on every instance; a token that was right gives it back, a
 * wrong one keeps it; past the limit the token is not looked up at all. The IP is keyed as the sign-in
 * throttle keys it.
 */
@Injectable()
export class MailLinkGuesses {
  constructor(
    private readonly throttle: SignInThrottleService,
    private readonly clock: Clock,
  ) {}

  async guess(ip: string, lookUp: () => Promise<boolean>): Promise<LinkCheck> {
    const reservation = await this.throttle.reserveOne(`mail-link:${this.throttle.keysFor('', ip).ip}`, this.clock.now());
    if (!reservation.allowed) return { kind: 'throttled', retryAfterSeconds: reservation.retryAfterSeconds };
    const valid = await lookUp();
    if (valid) await this.throttle.release(reservation);
    return { kind: valid ? 'valid' : 'invalid' };
  }
}

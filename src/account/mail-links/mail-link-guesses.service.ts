import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { SignInThrottleService } from '../../rate-limit/sign-in-throttle.service';
import type { LinkCheck } from './link-check';

/**
 * Guesses at the tokens of mail links, throttled per IP like sign-in (README.md, Your account;
 * SECURITY.md, "Guessing mail links"): a token that is unknown, used or expired takes a slot on the IP's
 * counter, under SIGN_IN_MAX_FAILURES per SIGN_IN_WINDOW, on every instance; past the limit such a token
 * is answered `throttled` (429, Retry-After). A valid token is never counted and always works, whatever
 * the count: people behind one address (an office, a carrier's NAT) who open used links must not lock
 * out a fresh one. Tokens have 256 bits, so what the count bounds is noise, not a chance of a hit. The IP
 * is keyed as the sign-in throttle keys it.
 */
@Injectable()
export class MailLinkGuesses {
  constructor(
    private readonly throttle: SignInThrottleService,
    private readonly clock: Clock,
  ) {}

  async guess(ip: string, lookUp: () => Promise<boolean>): Promise<LinkCheck> {
    if (await lookUp()) return { kind: 'valid' };
    const reservation = await this.throttle.reserveOne(`mail-link:${this.throttle.keysFor('', ip).ip}`, this.clock.now());
    if (!reservation.allowed) return { kind: 'throttled', retryAfterSeconds: reservation.retryAfterSeconds };
    return { kind: 'invalid' };
  }
}

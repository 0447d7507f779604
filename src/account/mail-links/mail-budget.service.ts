import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock, HOUR_MS } from '../../common/clock';
import { mailConfig } from '../../config/configuration';
import { SignInThrottleService } from '../../rate-limit/sign-in-throttle.service';

/** One IP may cause this many times MAIL_MAX_PER_HOUR mails an hour (people behind one address share it). */
export const MAIL_PER_IP_FACTOR = 10;

/**
 * Mail budgets (README.md, Your account; SECURITY.md, "Mail flooding"): a page that sends mail to an
 * address someone typed takes a slot on that address's counter (MAIL_MAX_PER_HOUR an hour) and on the
 * IP's (ten times as many), on every instance (Redis when set, else the database). Past either, the
 * caller answers as always and sends nothing. The IP is keyed as the sign-in throttle keys it.
 */
@Injectable()
export class MailBudget {
  constructor(
    private readonly throttle: SignInThrottleService,
    private readonly clock: Clock,
    @Inject(mailConfig.KEY) private readonly config: ConfigType<typeof mailConfig>,
  ) {}

  /** True when a mail to `email` caused from `ip` is within both budgets (and counted); false: send nothing. */
  async take(email: string, ip: string): Promise<boolean> {
    const now = this.clock.now();
    const keys = this.throttle.keysFor(email, ip);
    const address = await this.throttle.reserveOne(`mail-to:${keys.account}`, now, { max: this.config.maxPerHour, windowMs: HOUR_MS });
    if (!address.allowed) return false;
    const sender = await this.throttle.reserveOne(`mail-from:${keys.ip}`, now, { max: this.config.maxPerHour * MAIL_PER_IP_FACTOR, windowMs: HOUR_MS });
    if (!sender.allowed) {
      await this.throttle.release(address);
      return false;
    }
    return true;
  }
}


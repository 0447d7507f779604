import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { FetchBudget, MetadataFetchBudgetError } from '../../clients/metadata-documents/client-metadata';
import { Clock, HOUR_MS } from '../../common/clock';
import { authConfig } from '../../config/configuration';
import { addressKey } from '../../rate-limit/address-key';
import { SignInThrottleService } from '../../rate-limit/sign-in-throttle.service';

/** The counter of the documents fetched for the requests of one address (an IPv6 address by its /64). */
export function metadataFetchKey(ip: string): string {
  return `metadata-fetch:${addressKey(ip)}`;
}

/**
 * The fetch budget of the OAuth endpoints' requests (SECURITY.md, "SSRF through client metadata";
 * docs/configuration-and-deployment.md): CLIENT_METADATA_FETCHES_PER_HOUR client metadata documents an
 * hour for the requests of one address, on the counters every instance shares (Redis, else the
 * database). A slot is taken before the fetch, so simultaneous requests cannot pass the budget.
 */
@Injectable()
export class MetadataFetchBudgets {
  constructor(
    private readonly counters: SignInThrottleService,
    private readonly clock: Clock,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
  ) {}

  /** The budget of a request from `ip`. */
  of(ip: string): FetchBudget {
    return {
      take: async () => {
        const reservation = await this.counters.reserveOne(metadataFetchKey(ip), this.clock.now(), { max: this.auth.clientMetadataFetchesPerHour, windowMs: HOUR_MS });
        if (!reservation.allowed) throw new MetadataFetchBudgetError(reservation.retryAfterSeconds);
      },
    };
  }
}

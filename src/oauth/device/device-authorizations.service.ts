import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Client } from '../../clients/client.entity';
import { generateSecret, SECRET_PREFIX, sha256Hex } from '../../common/crypto/secrets';
import { OAuthError } from '../../common/errors/oauth-error';
import { authConfig } from '../../config/configuration';
import { Tx } from '../../database/transaction';
import { formatScope } from '../../common/scopes';
import { DeviceAuthorization } from '../entities/device-authorization.entity';
import { DeviceAuthorizationsRepository } from './device-authorizations.repository';
import { generateUserCode } from './user-code';

/** The device code's prefix, recognisable to secret scanners like the other tokens (SECURITY.md). */
export const DEVICE_CODE_PREFIX = SECRET_PREFIX.deviceCode;
/** RFC 8628 §3.2: the minimum seconds between polls, unless `slow_down` made it longer. */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5: `slow_down` adds this many seconds to the interval, for good. */
export const SLOW_DOWN_STEP_SECONDS = 5;

export interface IssuedDeviceAuthorization {
  deviceCode: string;
  /** Normalised: 8 letters, no hyphen. */
  userCode: string;
  expiresIn: number;
  interval: number;
}

/**
 * Device authorization requests (RFC 8628): issuing, finding by user code, the user's decision and the
 * device's polls. Every change that must happen once (a decision, the redemption, an interval) is decided
 * by the repository's conditional UPDATEs, so that concurrent requests on any instance sharing the
 * database agree on its outcome.
 */
@Injectable()
export class DeviceAuthorizationsService {
  constructor(
    private readonly rows: DeviceAuthorizationsRepository,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
  ) {}

  /**
   * RFC 8628 §3.2: a device code of 256 random bits and a user code, both stored only as hashes. A user
   * code that meets one still stored (2^-34 per row) is drawn again.
   */
  async issue(client: Client, scope: string[], resource: string | null, now: number): Promise<IssuedDeviceAuthorization> {
    const ttl = this.auth.deviceCodeTtlSeconds;
    for (let attempt = 0; ; attempt++) {
      const deviceCode = generateSecret(DEVICE_CODE_PREFIX, 32);
      const userCode = generateUserCode();
      const inserted = await this.rows.insert({
        deviceCodeHash: sha256Hex(deviceCode),
        userCodeHash: sha256Hex(userCode),
        clientId: client.id,
        scope: formatScope(scope),
        intervalSeconds: DEVICE_POLL_INTERVAL_SECONDS,
        expiresAt: now + ttl * 1000,
        createdAt: now,
        resource,
      });
      if (inserted) return { deviceCode, userCode, expiresIn: ttl, interval: DEVICE_POLL_INTERVAL_SECONDS };
      if (attempt >= 4) throw new Error('No free user code after 5 draws');
    }
  }

  /** The request a user code (normalised) stands for while the user may still decide on it: pending and not expired. */
  async findPending(userCode: string, now: number): Promise<DeviceAuthorization | null> {
    const row = await this.rows.findByUserCodeHash(sha256Hex(userCode));
    return row && row.status === 'pending' && row.expiresAt > now ? row : null;
  }

  /**
   * The user's decision, taken once: of two decisions at once (two tabs), or a decision racing the
   * expiry, only one changes the row. False when it was no longer pending.
   */
  async decide(id: number, decision: { approved: boolean; userId: number; authTime: number | null; amr: string[] | null }, now: number): Promise<boolean> {
    return this.rows.decide(id, { status: decision.approved ? 'approved' : 'denied', userId: decision.userId, authTime: decision.authTime, amr: decision.amr }, now);
  }

  /**
   * Marks an approved request redeemed, inside the transaction that issues its tokens. The single use is
   * decided here (RFC 8628 §3.5): of concurrent polls, on any instance, exactly one updates the row.
   */
  redeem(tx: Tx, id: number, now: number): Promise<boolean> {
    return this.rows.redeem(tx, id, now);
  }

  /**
   * A poll of the token endpoint (RFC 8628 §3.5), for an authenticated client allowed the grant. Returns
   * the approved request, not yet redeemed, for the caller to redeem; every other state is the error
   * §3.5 names. Checked in this order: the code is this client's (another client's code changes nothing,
   * SECURITY.md "Codes"), not redeemed, not expired, not denied; a pending one is polled at most once per
   * interval, and polling faster answers `slow_down` and lengthens the interval by 5 seconds, remembered.
   */
  async poll(deviceCode: string, client: Client, now: number): Promise<DeviceAuthorization> {
    const row = deviceCode.length <= 512 ? await this.rows.findByDeviceCodeHash(sha256Hex(deviceCode)) : null;
    if (!row || row.clientId !== client.id) throw new OAuthError('invalid_grant', 'The device code is invalid.');
    if (row.redeemedAt !== null) throw new OAuthError('invalid_grant', 'The device code has already been used.');
    if (row.expiresAt <= now) throw new OAuthError('expired_token', 'The device code has expired; start again.');
    if (row.status === 'denied') throw new OAuthError('access_denied', 'The user denied the request.');
    if (row.status === 'approved') return row;

    // The poll counts only when the interval since the last one has passed (a concurrent poll that got
    // there first makes this one too early).
    if (await this.rows.recordPollOnTime(row.id, now)) throw new OAuthError('authorization_pending', 'The user has not yet decided; poll again after the interval.');
    // Decided between the read and the update: the next poll sees the decision.
    if (!(await this.rows.slowDown(row.id, SLOW_DOWN_STEP_SECONDS, now))) throw new OAuthError('authorization_pending', 'Poll again after the interval.');
    throw new OAuthError('slow_down', `Polled faster than the interval; wait ${row.intervalSeconds + SLOW_DOWN_STEP_SECONDS} seconds between polls.`);
  }
}

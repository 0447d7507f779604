import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThanOrEqual, Repository } from 'typeorm';
import { SecurityEventsService } from '../security-events/security-events.service';
import { DpopProofsRepository } from '../auth/dpop/dpop-proofs.repository';
import { authConfig } from '../config/configuration';
import { AuthorizationCodesRepository } from '../oauth/authorize/authorization-codes.repository';
import { DeviceAuthorizationsRepository } from '../oauth/device/device-authorizations.repository';
import { EndedSession } from '../web/session/ended-session.entity';
import { SignInThrottle } from '../rate-limit/sign-in-throttle.entity';
import { PushedRequestsRepository } from '../oauth/authorize/pushed-requests.repository';
import { TokensRepository } from '../oauth/token/tokens.repository';
import { PendingRegistrationsRepository } from '../account/sign-up/pending-registrations.repository';
import { AccountMailTokensRepository } from '../account/password/account-mail-tokens.repository';
import { ClientsRepository } from '../clients/clients.repository';

export interface PurgeResult {
  codes: number;
  accessTokens: number;
  refreshTokens: number;
  /** Security events past their 90 days (README.md, Your account). */
  securityEvents: number;
  /** Signed-out sessions whose cookie has expired anyway. */
  endedSessions: number;
  /** DPoP proofs remembered in the database past the moment they could be accepted (RFC 9449 §11.1). */
  dpopProofs: number;
  /** Sign-ups whose confirmation link expired: their name and password hash are kept no longer. */
  pendingSignUps: number;
  /** Password-reset and change-of-address links past their expiry. */
  mailLinks: number;
  /** Clients registered dynamically (RFC 7591) that no user authorized within 30 days. */
  unusedRegistrations: number;
}

/**
 * Removes what can no longer be used (expired codes and tokens, signed-out sessions past their expiry,
 * sign-ups never confirmed and mailed links past their expiry), security events past their retention, and
 * dynamically registered clients no user authorized within 30 days (docs/integrate-with-oauth.md). Rows are only deleted once expired: a consumed code or a
 * rotated or revoked refresh token stays until then, because presenting it again must still be
 * recognised as a replay (RFC 6749 §4.1.2, RFC 9700 §4.14.2). Each statement is an idempotent
 * DELETE, so several instances purging at once is harmless. Each table is asked through its repository.
 */
@Injectable()
export class TokenPurgeService {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly codes: AuthorizationCodesRepository,
    private readonly deviceAuthorizations: DeviceAuthorizationsRepository,
    private readonly pushedRequests: PushedRequestsRepository,
    private readonly dpopProofs: DpopProofsRepository,
    // The sign-in throttle's and the session's own tables, each a single DELETE of the ORM.
    @InjectRepository(SignInThrottle) private readonly signInThrottles: Repository<SignInThrottle>,
    @InjectRepository(EndedSession) private readonly endedSessionRows: Repository<EndedSession>,
    private readonly securityEvents: SecurityEventsService,
    private readonly pendingSignUps: PendingRegistrationsRepository,
    private readonly mailLinks: AccountMailTokensRepository,
    private readonly clients: ClientsRepository,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
  ) {}

  async purge(now = Date.now()): Promise<PurgeResult> {
    // Tokens first: they point at codes.
    const { accessTokens, refreshTokens } = await this.tokens.purgeExpired(now);
    const codes = await this.codes.purgeExpired(now);
    await this.deviceAuthorizations.purgeExpired(now);
    // Sign-in failure counters whose window has ended count for nothing any more.
    // (The same table holds the hourly mail budgets of README.md, Your account: kept at least an hour.)
    await this.signInThrottles.delete({ windowStartedAt: LessThanOrEqual(now - Math.max(this.auth.signInWindowSeconds, 3600) * 1000) });
    // A signed-out session past its expiry no longer opens at all: its row proves nothing any more.
    const endedSessions = await this.endedSessionRows.delete({ expiresAt: LessThanOrEqual(now) });
    await this.pushedRequests.purgeExpired(now);
    const dpopProofs = await this.dpopProofs.purgeExpired(now);
    const securityEvents = await this.securityEvents.purge(now);
    const pendingSignUps = await this.pendingSignUps.purgeExpired(now);
    const mailLinks = await this.mailLinks.purgeExpired(now);
    const unusedRegistrations = await this.clients.purgeNeverAuthorized(now);
    return {
      codes,
      accessTokens,
      refreshTokens,
      securityEvents,
      endedSessions: endedSessions.affected ?? 0,
      dpopProofs,
      pendingSignUps,
      mailLinks,
      unusedRegistrations,
    };
  }
}

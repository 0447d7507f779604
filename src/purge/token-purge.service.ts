import { Injectable } from '@nestjs/common';
import { AccountMailTokensRepository } from '../account/password/account-mail-tokens.repository';
import { ClientsRepository } from '../clients/clients.repository';
import { Clock } from '../common/clock';
import { PendingRegistrationsRepository } from '../account/sign-up/pending-registrations.repository';
import { DpopProofsRepository } from '../auth/dpop/dpop-proofs.repository';
import { AuthorizationCodesRepository } from '../oauth/authorize/authorization-codes.repository';
import { PushedRequestsRepository } from '../oauth/authorize/pushed-requests.repository';
import { DeviceAuthorizationsRepository } from '../oauth/device/device-authorizations.repository';
import { TokensRepository } from '../oauth/token/tokens.repository';
import { SignInThrottlesRepository } from '../rate-limit/sign-in-throttles.repository';
import { SecurityEventsService } from '../security-events/security-events.service';
import { EndedSessionsRepository } from '../web/session/ended-sessions.repository';

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
 * recognised as a replay (RFC 6749 §4.1.2, RFC 9700 §4.14.2).
 *
 * The purge owns no table: each module purges its own through the repository (or service) it exports,
 * a `Purgeable` whose `purgeExpired(now)` is one idempotent DELETE, so several instances purging at once
 * is harmless (docs/add-a-module.md, "The purge"). To purge a new table, inject its Purgeable here, call
 * it in `purge` and name its count in PurgeResult and in `cli tokens:purge`'s line (tokens.commands.ts).
 */
@Injectable()
export class TokenPurgeService {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly codes: AuthorizationCodesRepository,
    private readonly deviceAuthorizations: DeviceAuthorizationsRepository,
    private readonly signInThrottles: SignInThrottlesRepository,
    private readonly endedSessions: EndedSessionsRepository,
    private readonly pushedRequests: PushedRequestsRepository,
    private readonly dpopProofs: DpopProofsRepository,
    private readonly securityEvents: SecurityEventsService,
    private readonly pendingSignUps: PendingRegistrationsRepository,
    private readonly mailLinks: AccountMailTokensRepository,
    private readonly clients: ClientsRepository,
    private readonly clock: Clock,
  ) {}

  async purge(now = this.clock.now()): Promise<PurgeResult> {
    // Tokens first: they point at codes.
    const { accessTokens, refreshTokens } = await this.tokens.purgeExpired(now);
    const codes = await this.codes.purgeExpired(now);
    await this.deviceAuthorizations.purgeExpired(now);
    await this.signInThrottles.purgeExpired(now);
    const endedSessions = await this.endedSessions.purgeExpired(now);
    await this.pushedRequests.purgeExpired(now);
    const dpopProofs = await this.dpopProofs.purgeExpired(now);
    const securityEvents = await this.securityEvents.purgeExpired(now);
    const pendingSignUps = await this.pendingSignUps.purgeExpired(now);
    const mailLinks = await this.mailLinks.purgeExpired(now);
    const unusedRegistrations = await this.clients.purgeNeverAuthorized(now);
    return { codes, accessTokens, refreshTokens, securityEvents, endedSessions, dpopProofs, pendingSignUps, mailLinks, unusedRegistrations };
  }
}

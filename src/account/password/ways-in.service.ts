import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { Transactions, Tx } from '../../database/transaction';
import { AuthorizationCodesRepository } from '../../oauth/authorize/authorization-codes.repository';
import { DeviceAuthorizationsRepository } from '../../oauth/device/device-authorizations.repository';
import { TokensRepository } from '../../oauth/token/tokens.repository';
import { SecondFactorRepository } from '../../second-factor/second-factor.repository';
import { PasswordHasher } from '../../users/password-hasher';
import { User } from '../../users/user.entity';
import { UsersService } from '../../users/users.service';
import { AccountMailTokensRepository } from './account-mail-tokens.repository';

/**
 * A change ends every way in that came before it (SECURITY.md, "A stolen session outliving a password
 * reset"; RFC 9700 §4.14; NIST SP 800-63B §6): setting a password (reset link, change form, the CLI) or an
 * address (confirmed change, the way back) calls `endAll` in the change's own transaction. The browser
 * sessions end through `users.sessions_valid_from`, set by the caller with the change.
 *
 * The access-token cache is not emptied here: that must happen after the COMMIT (a request reloading a
 * grant before it would cache the old answer), so each caller in the service calls
 * `AccessTokenCache.revoked()` once its transaction resolved. Other instances refuse the tokens within
 * TOKEN_CACHE_TTL_MS (at once when the cache is off, the default).
 */
@Injectable()
export class WaysInService {
  constructor(
    private readonly transactions: Transactions,
    private readonly mailTokens: AccountMailTokensRepository,
    private readonly tokens: TokensRepository,
    private readonly codes: AuthorizationCodesRepository,
    private readonly devices: DeviceAuthorizationsRepository,
    private readonly authenticators: SecondFactorRepository,
    private readonly users: UsersService,
    private readonly clock: Clock,
  ) {}

  /**
   * One statement per table, all of `tx`: every unused mailed link of the account, whatever its kind (the
   * ways back to an old address too), every refresh and access token of every
   * application, every authorization code not yet redeemed, every approved device request not yet
   * collected, and an authenticator app still being set up (its secret was shown to whoever held the
   * session then: confirmed later by the owner, it would be a code generator in both hands). Remembered
   * consents stay.
   */
  async endAll(tx: Tx, userId: number, now: number): Promise<void> {
    await this.mailTokens.retireAll(tx, userId, now);
    // Codes and device requests before tokens: a redemption under way holds its code's (or request's) row,
    // so these wait for it to commit, and the revocation after them then sees the tokens it issued. In
    // the other order, on PostgreSQL, a redemption committing between the two kept its tokens.
    await this.codes.retireAllOfUser(tx, userId, now);
    await this.devices.denyUnredeemedOfUser(tx, userId);
    await this.tokens.revokeAllOfUser(tx, userId, now);
    await this.authenticators.removePending(tx, userId);
  }

  /**
   * `cli users:reset-password` (README.md, Commands): the new password, the account's sessions ended and
   * `endAll`, in one transaction; null when no account has that address (nothing changes).
   */
  async setPasswordByOperator(email: string, password: string, now = this.clock.now()): Promise<User | null> {
    const user = await this.users.findByEmail(email);
    if (!user) return null;
    const passwordHash = await PasswordHasher.hash(password);
    await this.transactions.run(async (tx) => {
      await this.mailTokens.setPassword(tx, user.id, passwordHash, now);
      await this.endAll(tx, user.id, now);
    });
    return user;
  }
}

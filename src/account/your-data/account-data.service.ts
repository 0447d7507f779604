import { Injectable, Logger } from '@nestjs/common';
import { ApiKeysService } from '../../api-keys/api-keys.service';
import { AccessTokenCache } from '../../auth/access-token-cache';
import { ClientsService } from '../../clients/clients.service';
import { Transactions } from '../../database/transaction';
import { PasskeysService } from '../../passkeys/passkeys.service';
import { SecondFactorService } from '../../second-factor/second-factor.service';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { User } from '../../users/user.entity';
import { UsersRepository } from '../../users/users.repository';
import { ConnectedAppsService } from '../apps/connected-apps.service';
import { AccountSecurityService, SecurityProblem } from '../security/account-security.service';
import { DeleteAccountForm } from './delete-account.form';

/** How many security events the download holds at most (they are kept 90 days). */
const EXPORT_EVENTS = 10_000;

/**
 * Your data (README.md, Your account): everything the platform holds about a person, as JSON (never a
 * secret or a hash), and the deletion of the account with everything it owns, at once. Each part is read
 * by the module that owns its table, through its service.
 */
@Injectable()
export class AccountDataService {
  private readonly logger = new Logger('AccountData');

  constructor(
    private readonly transactions: Transactions,
    private readonly users: UsersRepository,
    private readonly apps: ConnectedAppsService,
    private readonly applications: ClientsService,
    private readonly apiKeys: ApiKeysService,
    private readonly passkeys: PasskeysService,
    private readonly secondFactor: SecondFactorService,
    private readonly events: SecurityEventsService,
    private readonly security: AccountSecurityService,
    private readonly tokenCache: AccessTokenCache,
  ) {}

  async export(user: User): Promise<object> {
    const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
    const [apps, applications, apiKeys, passkeys, secondFactor, events] = await Promise.all([
      this.apps.list(user.id),
      this.applications.listOwnedBy(user.id),
      this.apiKeys.listOwnedBy(user.id),
      this.passkeys.list(user.id),
      this.secondFactor.summary(user.id),
      this.events.recent(user.id, EXPORT_EVENTS),
    ]);
    return {
      profile: { id: user.id, name: user.name, email: user.email, email_verified: user.emailVerified, created_at: iso(user.createdAt) },
      connected_apps: apps.map((app) => ({ client_id: app.clientId, name: app.name, scopes: app.scopes, first_granted_at: iso(app.firstGrantedAt), last_used_at: iso(app.lastUsedAt) })),
      applications: applications.map((app) => ({
        client_id: app.clientId,
        name: app.name,
        client_type: app.type,
        redirect_uris: app.redirectUris,
        scopes: app.scopes,
        verified: app.verified,
        created_at: iso(app.createdAt),
      })),
      api_keys: apiKeys.map((key) => ({ name: key.name, prefix: key.prefix, tier: key.tier, created_at: iso(key.createdAt), last_used_at: iso(key.lastUsedAt), revoked_at: iso(key.revokedAt) })),
      passkeys: passkeys.map((passkey) => ({ name: passkey.name, created_at: iso(passkey.createdAt), last_used_at: iso(passkey.lastUsedAt) })),
      authenticator_app: { on: secondFactor.authenticatorOn, recovery_codes_left: secondFactor.recoveryCodesLeft },
      security_events: events.map((event) => ({ type: event.type, at: iso(event.at), ip: event.ip, ...event.details })),
    };
  }

  /**
   * Deletes the account with the current password and the ticked `confirm`: the account's row and, by
   * cascade, its sessions' cutoff, consents, codes, tokens, applications (with their tokens) and API keys,
   * in one transaction. This instance's token cache forgets at once; other instances' within
   * TOKEN_CACHE_TTL_MS (none when the cache is off). The address can sign up again.
   */
  async delete(user: User, form: DeleteAccountForm, ip: string): Promise<{ ok: true } | { ok: false; problem: SecurityProblem | { kind: 'unconfirmed' } }> {
    if (form.confirm !== 'yes' && form.confirm !== 'on') return { ok: false, problem: { kind: 'unconfirmed' } };
    const checked = await this.security.checkPassword(user, form.current_password, ip);
    if (checked) return { ok: false, problem: checked };
    await this.transactions.run((tx) => this.users.deleteAccount(tx, user.id));
    this.tokenCache.revoked();

    // The account's events went with it: the deletion is one log line for the operator, without the address.
    this.logger.log({ securityEvent: 'account_deleted', userId: user.id, ip }, 'security event');
    return { ok: true };
  }
}

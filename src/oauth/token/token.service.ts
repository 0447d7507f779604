import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { AccessTokenCache } from '../../auth/access-token-cache';
import { Client } from '../../clients/client.entity';
import { sha256Hex } from '../../common/crypto/secrets';
import { INVALID_TARGET, OAuthError } from '../../common/errors/oauth-error';
import { ProtectedResources } from '../../auth/protected-resources';
import { authConfig } from '../../config/configuration';
import { MetricsService } from '../../metrics/metrics.service';
import { IdTokenService } from '../../oidc/id-token.service';
import { AuthorizationCode } from '../entities/authorization-code.entity';
import { RefreshToken } from '../entities/refresh-token.entity';
import { Transactions, Tx } from '../../database/transaction';
import { isValidCodeVerifier, verifyS256 } from '../pkce';
import { formatScope, isSubset, isUserScope, parseRequestedScope } from '../../common/scopes';
import { Clock } from '../../common/clock';
import { DeviceAuthorizationsService } from '../device/device-authorizations.service';
import { OAuthForm } from '../client-auth/oauth-form';
import { AuthorizationCodesRepository } from '../authorize/authorization-codes.repository';
import { ConsentsRepository } from '../authorize/consents.repository';
import { IssuedTokens, IssueTokens, newFamilyId, TokensRepository } from './tokens.repository';
import { UsersRepository } from '../../users/users.repository';

/** RFC 6749 §5.1 */
export interface TokenResponse {
  access_token: string;
  /** `DPoP` when the access token is bound to the key of the request's DPoP proof (RFC 9449 §5). */
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  /** Absent for the client-credentials grant (RFC 6749 §4.4.3). */
  refresh_token?: string;
  scope: string;
  /** OpenID Connect Core §3.1.3.3: when the grant holds `openid`. */
  id_token?: string;
}

/**
 * Who asks: the client's address (for the account's security events) and, when the request carried a
 * valid DPoP proof (RFC 9449 §5), the thumbprint of its key, which the tokens issued are bound to.
 */
export interface TokenCaller {
  ip?: string;
  jkt?: string | null;
}

/** What a refresh may ask for, checked against its token (TokenService.checkRefresh). */
interface CheckedRefresh {
  resource: string;
  accessScope: string[];
  authTime: number | null;
}

type Redemption = { kind: 'issued'; tokens: IssuedTokens } | { kind: 'replayed'; revoked?: number };

/** The token endpoint's grants (RFC 6749 §4.1.3, §4.4 and §6), for an already authenticated client. */
@Injectable()
export class TokenService {
  constructor(
    private readonly transactions: Transactions,
    private readonly codes: AuthorizationCodesRepository,
    private readonly tokens: TokensRepository,
    private readonly consents: ConsentsRepository,
    private readonly tokenCache: AccessTokenCache,
    private readonly events: SecurityEventsService,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
    private readonly metrics: MetricsService,
    private readonly idTokens: IdTokenService,
    private readonly deviceAuthorizations: DeviceAuthorizationsService,
    private readonly clock: Clock,
    private readonly resources: ProtectedResources,
    private readonly users: UsersRepository,
  ) {}

  /**
   * `caller.ip`: the client's address, for the account's security events. `now` (epoch ms) is the
   * clock every expiry and the refresh grace period are measured by.
   */
  async grant(form: OAuthForm, client: Client, caller: TokenCaller = {}, now = this.clock.now()): Promise<TokenResponse> {
    const grantType = form.grant_type;
    const jkt = caller.jkt ?? null;
    if (grantType === undefined) throw new OAuthError('invalid_request', 'The grant_type parameter is missing.');
    if (grantType === 'authorization_code') return this.redeemCode(form, client, jkt, now);
    if (grantType === 'refresh_token') return this.refresh(form, client, caller.ip, jkt, now);
    if (grantType === 'client_credentials') return this.clientCredentials(form, client, jkt, now);
    if (grantType === DEVICE_CODE_GRANT) return this.redeemDeviceCode(form, client, jkt);
    throw new OAuthError('unsupported_grant_type', `Supported grant types: authorization_code, refresh_token, client_credentials, ${DEVICE_CODE_GRANT}.`);
  }

  /**
   * RFC 8628 §3.4–§3.5: a device polling for the user's decision. Its time is the injected clock, so
   * the interval and the expiry are inputs of a test. Once approved, the tokens of the code flow, given
   * once: the redemption is a conditional UPDATE in the transaction that issues them, so of concurrent
   * polls on any instance exactly one gets tokens and the others `invalid_grant`.
   */
  private async redeemDeviceCode(form: OAuthForm, client: Client, jkt: string | null): Promise<TokenResponse> {
    if (!client.deviceFlow) throw new OAuthError('unauthorized_client', 'This client is not allowed the device authorization grant.');
    if (form.device_code === undefined) throw new OAuthError('invalid_request', 'The device_code parameter is missing.');
    const now = this.clock.now();
    const authorization = await this.deviceAuthorizations.poll(form.device_code, client, now);
    const userId = authorization.userId!;
    await this.refuseEndedSignIn(userId, authorization.authTime, 'The device code was approved in a sign-in that has ended since.');
    const resource = this.audience(form, authorization.resource);
    const tokens = await this.transactions.run(async (tx) => {
      if (!(await this.deviceAuthorizations.redeem(tx, authorization.id, now))) return null;
      return this.issue(tx, {
        clientId: client.id,
        userId,
        grantScope: authorization.scope,
        accessScope: authorization.scope,
        grantResource: resource,
        accessResource: resource,
        familyId: newFamilyId(),
        authorizationCodeId: null,
        authTime: authorization.authTime,
        amr: authorization.amr,
        acr: null,
        now,
        accessTtlSeconds: this.auth.accessTokenTtlSeconds,
        refreshTtlSeconds: this.auth.refreshTokenTtlSeconds,
        // RFC 9449 §5: a proof binds the access token, and for a public client the refresh token too.
        accessJkt: jkt,
        refreshJkt: client.type === 'public' ? jkt : null,
      });
    });
    if (!tokens) throw invalidGrant('The device code has already been used.');
    return this.response(tokens, authorization.scope, jkt, { client, userId, grantScope: authorization.scope, authTime: authorization.authTime, amr: authorization.amr, acr: null, nonce: null });
  }

  /**
   * RFC 6749 §4.4: the client asks for itself, not for a user. The token holds the requested scope, or
   * by default every registered scope that needs no user (RFC 6749 §3.3); it has no user and comes
   * without a refresh token (§4.4.3), since the client can simply ask again.
   */
  private async clientCredentials(form: OAuthForm, client: Client, jkt: string | null, now: number): Promise<TokenResponse> {
    // RFC 6749 §4.4: "The client credentials grant type MUST only be used by confidential clients."
    if (client.type !== 'confidential') throw new OAuthError('unauthorized_client', 'Only a confidential client may use the client_credentials grant.');
    // docs/integrate-with-oauth.md, "Register a client dynamically": a client that registered itself acts only for the users who allow it.
    if (client.registrationAccessTokenHash !== null) throw new OAuthError('unauthorized_client', 'A dynamically registered client may not use the client_credentials grant.');
    const allowed = client.scopes.filter((scope) => !isUserScope(scope));
    // offline_access, listed in discovery, is taken and left out here as at every endpoint (src/common/scopes.ts).
    const requested = form.scope === undefined ? [] : parseRequestedScope(form.scope);
    const userScopes = requested.filter(isUserScope);
    if (userScopes.length > 0) {
      throw new OAuthError('invalid_scope', `A client_credentials token acts for no user, so it cannot hold ${userScopes.join(', ')}.`);
    }
    if (!isSubset(requested, allowed)) throw new OAuthError('invalid_scope', 'The requested scope exceeds the scopes registered for this client.');
    const scope = requested.length > 0 ? requested : allowed;
    if (scope.length === 0) throw new OAuthError('invalid_scope', 'This client has no registered scope that a client_credentials token may hold.');
    // RFC 8707 §2: the client asks for itself, so it may name either resource; by default the public API.
    const resource = this.audience(form, null, true);

    const accessToken = await this.transactions.run((tx) =>
      this.tokens.issueClientToken(tx, { clientId: client.id, scope, now, accessTtlSeconds: this.auth.accessTokenTtlSeconds, jkt, resource }),
    );
    return { access_token: accessToken, token_type: tokenType(jkt), expires_in: this.auth.accessTokenTtlSeconds, scope: formatScope(scope) };
  }

  /** RFC 6749 §4.1.3, with the PKCE check of RFC 7636 §4.6. */
  private async redeemCode(form: OAuthForm, client: Client, jkt: string | null, now: number): Promise<TokenResponse> {
    if (form.code === undefined) throw new OAuthError('invalid_request', 'The code parameter is missing.');
    if (form.redirect_uri === undefined) throw new OAuthError('invalid_request', 'The redirect_uri parameter is missing.');
    const code = await this.codes.findByHash(sha256Hex(form.code));
    if (!code) throw invalidGrant('The authorization code is invalid.');
    // RFC 6749 §4.1.3: the code must have been issued to the authenticated client. Checked before
    // anything else, so another client presenting a code it learnt (SECURITY.md "Codes") changes
    // nothing: the revocation below is for the client the code was issued to.
    if (code.clientId !== client.id) throw invalidGrant('The authorization code was issued to another client.');
    if (code.consumedAt !== null) {
      // RFC 6749 §4.1.2: a code used twice is refused, and what it granted is revoked.
      await this.transactions.run((tx) => this.tokens.revokeIssuedFromCode(tx, code.id, now));
      this.refuseReplay(CODE_REPLAYED);
    }
    if (code.expiresAt <= now) throw invalidGrant('The authorization code has expired.');
    // RFC 6749 §4.1.3: identical to the redirect_uri of the authorization request, which the code holds
    // as it was sent; so a loopback port chosen at that request (RFC 8252 §7.3) must be sent again here.
    if (code.redirectUri !== form.redirect_uri) throw invalidGrant('redirect_uri does not match the authorization request.');
    this.checkPkce(code, form.code_verifier);
    await this.refuseEndedSignIn(code.userId, code.authTime, 'The authorization code was issued in a sign-in that has ended since.');
    // Checked before the code is used: a request naming another resource changes nothing.
    const resource = this.audience(form, code.resource);

    const redemption = await this.transactions.run(async (tx): Promise<Redemption> => {
      // Of concurrent redemptions, on any instance, exactly one wins; the losers are replays.
      if (!(await this.codes.redeem(tx, code.id, now))) {
        await this.tokens.revokeIssuedFromCode(tx, code.id, now);
        return { kind: 'replayed' };
      }
      const tokens = await this.issue(tx, {
        clientId: client.id,
        userId: code.userId,
        grantScope: code.scope,
        accessScope: code.scope,
        grantResource: resource,
        accessResource: resource,
        familyId: newFamilyId(),
        authorizationCodeId: code.id,
        authTime: code.authTime,
        amr: code.amr,
        acr: code.acr,
        now,
        accessTtlSeconds: this.auth.accessTokenTtlSeconds,
        refreshTtlSeconds: this.auth.refreshTokenTtlSeconds,
        accessJkt: jkt,
        // RFC 9449 §5: a public client's refresh token is bound to the key too (a confidential client's
        // is already bound to the client's own credentials).
        refreshJkt: client.type === 'public' ? jkt : null,
      });
      return { kind: 'issued', tokens };
    });
    if (redemption.kind === 'replayed') this.refuseReplay(CODE_REPLAYED);
    return this.response(redemption.tokens, code.scope, jkt, {
      client,
      userId: code.userId,
      grantScope: code.scope,
      authTime: code.authTime,
      amr: code.amr,
      acr: code.acr,
      nonce: code.nonce,
    });
  }

  /**
   * RFC 6749 §6 with rotation (RFC 9700 §4.14.2) and the optional grace period described in
   * docs/integrate-with-oauth.md and SECURITY.md: the family never holds more than one live refresh token.
   *
   * The common case, a live token of this client, is one statement that checks and rotates it
   * (TokensRepository.rotateLive) in the transaction that issues the new pair: no read before the
   * write. The checks that need the row come next in the same transaction, and a refusal rolls the
   * rotation back with it. Any other token (unknown, another client's, expired, rotated, revoked) is
   * read and judged by `refreshRetired`.
   */
  private async refresh(form: OAuthForm, client: Client, ip: string | undefined, jkt: string | null, now: number): Promise<TokenResponse> {
    if (form.refresh_token === undefined) throw new OAuthError('invalid_request', 'The refresh_token parameter is missing.');
    const tokenHash = sha256Hex(form.refresh_token);
    const rotated = await this.transactions.run(async (tx) => {
      const token = await this.tokens.rotateLive(tx, tokenHash, client.id, now);
      if (!token) return null;
      this.checkRefreshKey(token, jkt);
      const checked = this.checkRefresh(form, token);
      return { token, checked, tokens: await this.issue(tx, this.rotation(token, checked, client, jkt, now)) };
    });
    if (rotated === null) return this.refreshRetired(form, client, tokenHash, ip, jkt, now);
    return this.refreshed(rotated.tokens, rotated.token, rotated.checked, client, jkt);
  }

  /**
   * A refresh whose token was not live for this client: refused with the reason, or (within
   * REFRESH_TOKEN_GRACE_PERIOD) the most recently rotated token of its family presented again, or a
   * retired token coming back, which revokes its family.
   */
  private async refreshRetired(form: OAuthForm, client: Client, tokenHash: string, ip: string | undefined, jkt: string | null, now: number): Promise<TokenResponse> {
    const token = await this.tokens.refreshToken(tokenHash);
    // RFC 6749 §6: the token must have been issued to the authenticated client.
    if (!token || token.clientId !== client.id) throw invalidGrant('The refresh token is invalid.');
    // RFC 9449 §5: a bound refresh token is used only with a proof of its key. Checked before anything
    // is written: a stolen copy without the key changes nothing (SECURITY.md, "Token theft").
    this.checkRefreshKey(token, jkt);
    if (token.revokedAt !== null) {
      // Every revocation takes the whole family (user, client, reuse), except one: a grace-period use
      // replaces the pair handed out before for its token. Such a replaced token coming back means two
      // parties hold the family's tokens, so the family goes (RFC 9700 §4.14.2); a family already
      // revoked has nothing left to revoke and is simply refused.
      const revoked = await this.transactions.run((tx) => this.tokens.revokeFamily(tx, token.familyId, now));
      if (revoked > 0) {
        await this.recordReuse(revoked, token.userId, client, ip);
        this.refuseRefreshReuse();
      }
      throw invalidGrant('The refresh token has been revoked.');
    }
    // Rotated this long ago or later, a refresh token may come back within the grace period.
    const graceSince = now - this.auth.refreshTokenGracePeriodSeconds * 1000;
    const graceOn = this.auth.refreshTokenGracePeriodSeconds > 0;
    if (token.rotatedAt !== null && !(graceOn && token.rotatedAt >= graceSince)) {
      // RFC 9700 §4.14.2: a retired refresh token came back, so either the client or an attacker
      // holds a stolen copy. The whole family is revoked.
      const revoked = await this.transactions.run((tx) => this.tokens.revokeFamily(tx, token.familyId, now));
      await this.recordReuse(revoked, token.userId, client, ip);
      this.refuseRefreshReuse();
    }
    if (token.expiresAt <= now) throw invalidGrant('The refresh token has expired.');
    const checked = this.checkRefresh(form, token);

    let replacedPair = false;
    const redemption = await this.transactions.run(async (tx): Promise<Redemption> => {
      // Not rotated now: it was already (by an earlier request, or a concurrent one on any instance) or
      // it was revoked. Within REFRESH_TOKEN_GRACE_PERIOD the most recently rotated token of the family
      // may be presented again by its client (a retry after a lost answer, two tabs refreshing at once),
      // and its new pair replaces the one handed out before for it; anything else is a retired token
      // coming back.
      if (!(await this.tokens.rotate(tx, token.id, now))) {
        if (!(graceOn && (await this.tokens.claimGraceReuse(tx, token, graceSince, now)))) {
          return { kind: 'replayed', revoked: await this.tokens.revokeFamily(tx, token.familyId, now) };
        }
        await this.tokens.revokeLivePair(tx, token.familyId, now);
        replacedPair = true;
      }
      return { kind: 'issued', tokens: await this.issue(tx, this.rotation(token, checked, client, jkt, now)) };
    });
    // The pair handed out before for a token used again within the grace period is revoked: this
    // instance's token cache forgets it once that is committed, as after every revocation.
    if (replacedPair) this.tokenCache.revoked();
    if (redemption.kind === 'replayed') {
      await this.recordReuse(redemption.revoked ?? 0, token.userId, client, ip);
      this.refuseRefreshReuse();
    }
    return this.refreshed(redemption.tokens, token, checked, client, jkt);
  }

  /** RFC 9449 §5: a bound refresh token is used only with a proof of its key. */
  private checkRefreshKey(token: RefreshToken, jkt: string | null): void {
    if (token.jkt === null) return;
    if (jkt === null) throw new OAuthError('invalid_dpop_proof', 'This refresh token is bound to a DPoP key: send a DPoP proof signed with that key.');
    if (jkt !== token.jkt) throw invalidGrant('The refresh token is bound to another DPoP key.');
  }

  /**
   * What a refresh of a usable token may ask for, after its key (checkRefreshKey): the resource and the
   * scope. Each refusal comes before the token rotates, or rolls its rotation back: a refused request
   * changes nothing.
   */
  private checkRefresh(form: OAuthForm, token: RefreshToken): CheckedRefresh {
    // RFC 8707 §2: a refresh may name the resource of its grant, never another (SECURITY.md, "Token
    // replay across resources").
    const resource = this.audience(form, token.resource);
    let accessScope = token.scope;
    const narrowed = form.scope === undefined ? [] : parseRequestedScope(form.scope);
    if (narrowed.length > 0) {
      accessScope = narrowed;
      // RFC 6749 §6: the requested scope must not include any scope not originally granted.
      if (!isSubset(accessScope, token.scope)) throw new OAuthError('invalid_scope', 'The requested scope exceeds the scope of the grant.');
    }
    // The sign-in time of the grant, for its ID token.
    const authTime = token.scope.includes('openid') ? token.authTime : null;
    return { resource, accessScope, authTime };
  }

  /** The new pair of a rotation: the grant of the presented token, kept. */
  private rotation(token: RefreshToken, checked: CheckedRefresh, client: Client, jkt: string | null, now: number): IssueTokens {
    return {
      clientId: client.id,
      userId: token.userId,
      grantScope: token.scope,
      accessScope: checked.accessScope,
      grantResource: checked.resource,
      accessResource: checked.resource,
      familyId: token.familyId,
      authorizationCodeId: token.authorizationCodeId,
      authTime: checked.authTime,
      // RFC 8176: the grant's sign-in methods, kept across refreshes as auth_time is.
      amr: token.amr,
      acr: token.acr,
      now,
      accessTtlSeconds: this.auth.accessTokenTtlSeconds,
      refreshTtlSeconds: this.auth.refreshTokenTtlSeconds,
      accessJkt: jkt,
      // RFC 9449 §5: a bound grant keeps its key. A public client's grant begun without DPoP is bound
      // at the first refresh that brings a proof, so that from then on its refresh token is useless
      // without that key (SECURITY.md, "Token theft").
      refreshJkt: token.jkt ?? (client.type === 'public' ? jkt : null),
    };
  }

  /** OIDC Core §12.2: the answer to a refresh, with a new ID token when the grant holds openid, without the original nonce. */
  private refreshed(tokens: IssuedTokens, token: RefreshToken, checked: CheckedRefresh, client: Client, jkt: string | null): Promise<TokenResponse> {
    return this.response(tokens, checked.accessScope, jkt, { client, userId: token.userId, grantScope: token.scope, authTime: checked.authTime, amr: token.amr, acr: token.acr, nonce: null });
  }

  /**
   * RFC 8707 §2: the audience of the access token asked for. Without `resource`, the resource the grant
   * was asked for at authorization (the public API when it named none); with it, one of this platform's
   * resources, and for a grant a user gave, that grant's own: a token for one resource is never turned into
   * a token for another (`invalid_target`).
   */
  private audience(form: OAuthForm, granted: string | null, anyResource = false): string {
    const grantResource = this.resources.audienceOf(granted);
    if (form.resource === undefined) return grantResource;
    const named = this.resources.canonical(form.resource);
    if (named === null) throw new OAuthError('invalid_target', INVALID_TARGET);
    if (!anyResource && named !== grantResource) throw new OAuthError('invalid_target', 'The resource is not the one this grant was authorized for.');
    return named;
  }

  /** A grant's pair of tokens, and the consent's "last used" (README.md, Your account) in the same transaction. */
  private async issue(tx: Tx, grant: IssueTokens): Promise<IssuedTokens> {
    const tokens = await this.tokens.issue(tx, grant);
    await this.consents.markUsed(tx, grant.userId, grant.clientId, grant.now);
    return tokens;
  }

  /**
   * RFC 7636 §4.6 with the downgrade rule of RFC 9700 §2.1.1: a code issued with a challenge needs
   * the matching verifier, and a verifier for a code issued without a challenge is refused.
   */
  /**
   * A code or an approved device request of a sign-in that a password reset or change (or a new address)
   * has ended since: issued while that change was committing, it slipped past the change's retiring of
   * them (SECURITY.md, "A sign-in under way while the owner resets"). A change committed after this check revokes what the
   * redemption issues, as it waits for the redemption's lock on the code's row.
   */
  private async refuseEndedSignIn(userId: number, authTime: number | null, message: string): Promise<void> {
    if (authTime !== null && (await this.users.sessionsEndedAfter(userId, authTime))) throw invalidGrant(message);
  }

  private checkPkce(code: AuthorizationCode, verifier: string | undefined): void {
    if (code.codeChallenge === null) {
      if (verifier !== undefined) throw invalidGrant('code_verifier was sent but the authorization request had no code_challenge.');
      return;
    }
    if (verifier === undefined) throw invalidGrant('The code_verifier parameter is missing.');
    if (!isValidCodeVerifier(verifier)) throw invalidGrant('code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1).');
    if (!verifyS256(verifier, code.codeChallenge)) throw invalidGrant('code_verifier does not match the code_challenge.');
  }

  /**
   * README.md, Your account: a family revoked because a retired refresh token came back is an event of the user's
   * account. Only when this request revoked live tokens: a family already revoked (by the user, or by
   * an earlier replay) is not news.
   */
  private async recordReuse(revoked: number, userId: number, client: Client, ip: string | undefined): Promise<void> {
    if (revoked === 0) return;
    await this.events.record({ userId, type: 'refresh_token_reuse', ip, details: { client: client.name, clientId: client.clientId } });
  }

  /**
   * A replayed code or refresh token, whose grant has just been revoked (and committed): this instance's
   * token cache forgets it before the client hears of it, and the replay is refused.
   */
  private refuseReplay(description: string): never {
    this.tokenCache.revoked();
    throw invalidGrant(description);
  }

  /** RFC 9700 §4.14.2: a retired refresh token came back and its family has just been revoked. */
  private refuseRefreshReuse(): never {
    this.metrics.refreshFamilyRevokedForReuse();
    this.refuseReplay(REFRESH_REPLAYED);
  }

  private async response(tokens: IssuedTokens, scope: string[], jkt: string | null, grant: { client: Client; userId: number; grantScope: string[]; authTime: number | null; amr: string[] | null; acr: string | null; nonce: string | null }): Promise<TokenResponse> {
    const response: TokenResponse = {
      access_token: tokens.accessToken,
      token_type: tokenType(jkt),
      expires_in: this.auth.accessTokenTtlSeconds,
      refresh_token: tokens.refreshToken,
      scope: formatScope(scope),
    };
    // The ID token follows the grant (it holds openid), and states the claims of the access token's scope.
    if (grant.grantScope.includes('openid')) {
      const idToken = await this.idTokens.issue({
        clientId: grant.client.clientId,
        alg: grant.client.idTokenSignedResponseAlg,
        userId: grant.userId,
        scope: scope.includes('openid') ? scope : ['openid', ...scope],
        accessToken: tokens.accessToken,
        authTime: grant.authTime,
        amr: grant.amr,
        acr: grant.acr,
        nonce: grant.nonce,
      });
      if (idToken !== null) response.id_token = idToken;
    }
    return response;
  }
}

/** RFC 8628 §3.4 */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

const CODE_REPLAYED = 'The authorization code has already been used.';
const REFRESH_REPLAYED = 'The refresh token has already been used; its grant has been revoked.';

/** RFC 9449 §5: a bound access token is of type DPoP, which tells the client how to present it. */
function tokenType(jkt: string | null): TokenResponse['token_type'] {
  return jkt === null ? 'Bearer' : 'DPoP';
}

function invalidGrant(description: string): OAuthError {
  return new OAuthError('invalid_grant', description);
}

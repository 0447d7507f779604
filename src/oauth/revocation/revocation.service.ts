import { Injectable } from '@nestjs/common';
import { AccessTokenCache } from '../../auth/access-token-cache';
import { Client } from '../../clients/client.entity';
import { Clock } from '../../common/clock';
import { OAuthError } from '../../common/errors/oauth-error';
import { Transactions } from '../../database/transaction';
import { OAuthForm } from '../client-auth/oauth-form';
import { TokensRepository } from '../token/tokens.repository';

/** Token revocation (RFC 7009). */
@Injectable()
export class RevocationService {
  constructor(
    private readonly transactions: Transactions,
    private readonly tokens: TokensRepository,
    private readonly tokenCache: AccessTokenCache,
    private readonly clock: Clock,
  ) {}

  /**
   * RFC 7009 §2.2: the answer is 200 whether or not the token was known, so the endpoint reveals
   * nothing. A token of another client is left alone with the same answer.
   */
  async revoke(form: OAuthForm, client: Client): Promise<void> {
    if (form.token === undefined) throw new OAuthError('invalid_request', 'The token parameter is missing.');
    const found = await this.tokens.find(form.token, form.token_type_hint);
    if (!found || found.row.clientId !== client.id) return;
    const now = this.clock.now();
    if (found.type === 'access_token') {
      await this.tokens.revokeAccessToken(found.row.id, now);
      // Before the answer: on this instance a revoked token is refused from the next request on.
      this.tokenCache.revoked();
      return;
    }
    // RFC 7009 §2.1: revoking a refresh token also invalidates the access tokens of the same grant
    // (and its later refresh tokens): the whole family goes.
    const familyId = found.row.familyId;
    await this.transactions.run((tx) => this.tokens.revokeFamily(tx, familyId, now));
    this.tokenCache.revoked();
  }
}

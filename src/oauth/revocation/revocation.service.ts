import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessTokenCache } from '../../auth/access-token-cache';
import { Client } from '../../clients/client.entity';
import { OAuthError } from '../../common/errors/oauth-error';
import { inTransaction } from '../../database/transaction';
import { OAuthForm } from '../client-auth/oauth-form';
import { TokenLookup } from '../token/token-lookup';
import { revokeFamily } from '../token/token-store';

/** Token revocation (RFC 7009). */
@Injectable()
export class RevocationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lookup: TokenLookup,
    private readonly tokenCache: AccessTokenCache,
  ) {}

  /**
   * RFC 7009 §2.2: the answer is 200 whether or not the token was known, so the endpoint reveals
   * nothing. A token of another client is left alone with the same answer.
   */
  async revoke(form: OAuthForm, client: Client): Promise<void> {
    if (form.token === undefined) throw new OAuthError('invalid_request', 'The token parameter is missing.');
    const found = await this.lookup.find(form.token, form.token_type_hint);
    if (!found || found.row.clientId !== client.id) return;
    const now = Date.now();
    if (found.type === 'access_token') {
      await inTransaction(this.dataSource, (tx) =>
        tx.run(`UPDATE oauth_access_tokens SET revoked_at = ${tx.p(1)} WHERE id = ${tx.p(2)} AND revoked_at IS NULL`, [now, found.row.id]),
      );
      // Before the answer: on this instance a revoked token is refused from the next request on.
      this.tokenCache.revoked();
      return;
    }
    // RFC 7009 §2.1: revoking a refresh token also invalidates the access tokens of the same grant
    // (and its later refresh tokens): the whole family goes.
    const familyId = found.row.familyId;
    await inTransaction(this.dataSource, (tx) => revokeFamily(tx, familyId, now));
    this.tokenCache.revoked();
  }
}

import { Injectable } from '@nestjs/common';
import { Client } from '../../clients/client.entity';
import { Clock } from '../../common/clock';
import { OAuthError } from '../../common/errors/oauth-error';
import { formatScope } from '../../common/scopes';
import { OAuthForm } from '../client-auth/oauth-form';
import { TokensRepository } from '../token/tokens.repository';
import { ProtectedResources } from '../../auth/protected-resources';

/** RFC 7662 §2.2 */
export type IntrospectionResponse =
  | { active: false }
  | { active: true; scope: string; client_id: string; sub?: string; exp: number; iat: number; token_type: string; aud: string; cnf?: { jkt: string } };

/** Token introspection (RFC 7662). */
@Injectable()
export class IntrospectionService {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly resources: ProtectedResources,
    private readonly clock: Clock,
  ) {}

  /**
   * Active means: known, issued to this client, not revoked, not expired and, for a refresh token, not
   * yet rotated. RFC 7662 §2.2: anything else is just `{"active": false}`, without saying why — also a
   * token of another client, which this client must not learn anything about.
   */
  async introspect(form: OAuthForm, client: Client): Promise<IntrospectionResponse> {
    // RFC 7662 §2.1: the endpoint needs its own authorization; a public client has no credentials, so
    // anyone who knows its client_id could ask about its tokens (SECURITY.md, "Introspection").
    if (client.type === 'public') {
      throw new OAuthError('invalid_client', 'Token introspection needs client authentication (RFC 7662 §2.1): a public client cannot use it.', {
        'www-authenticate': 'Basic realm="oauth"',
      });
    }
    if (form.token === undefined) throw new OAuthError('invalid_request', 'The token parameter is missing.');
    const found = await this.tokens.find(form.token, form.token_type_hint);
    const now = this.clock.now();
    if (!found || found.row.clientId !== client.id || found.row.revokedAt !== null || found.row.expiresAt <= now) return { active: false };
    if (found.type === 'refresh_token' && found.row.rotatedAt !== null) return { active: false };
    return {
      active: true,
      scope: formatScope(found.row.scope),
      client_id: client.clientId,
      // RFC 7662 §2.2: `sub` names the resource owner; a client-credentials token has none but its client.
      ...(found.row.userId === null ? {} : { sub: String(found.row.userId) }),
      exp: Math.floor(found.row.expiresAt / 1000),
      iat: Math.floor(found.row.createdAt / 1000),
      // RFC 7662 §2.2 names the token type of RFC 6749 §7.1 for access tokens; refresh tokens have none
      // there, so they are named by their token_type_hint value.
      token_type: found.type === 'refresh_token' ? 'refresh_token' : found.row.jkt === null ? 'Bearer' : 'DPoP',
      // RFC 7662 §2.2, RFC 8707: the resource the token is for (a refresh token: the resource of its grant).
      aud: this.resources.audienceOf(found.row.resource),
      // RFC 9449 §6.2: the key a bound token (access, or a public client's refresh token) is bound to.
      ...(found.row.jkt === null ? {} : { cnf: { jkt: found.row.jkt } }),
    };
  }
}
